/** @module types/hostname: CNAME, NS and PTR — rdata is one domain name. */
import { tokenize } from '../charstring.ts'
import { fail } from '../errors.ts'
import { fqdn, nameFromPresentation, parseHostname } from '../names.ts'
import { TYPE_CODES } from '../record-type.ts'
import type { ContentSpec } from '../spec.ts'
import { targetHost } from './common.ts'

function hostnameSpec(
  type: 'CNAME' | 'NS' | 'PTR',
  errorCode: number,
  proxiable: boolean,
  target: string
): ContentSpec {
  return {
    kind: 'content',
    type,
    code: TYPE_CODES[type],
    errorCode,
    example: { fields: { content: target }, presentation: `${target}.` },
    proxiable,
    priority: 'none',
    dataKeys: [],
    parseContent(content) {
      // a PTR may legitimately look like anything; CNAME/NS targets must not be IP literals
      return type === 'PTR' ? parseHostname(content, 'content') : targetHost(content, 'content')
    },
    toPresentation: (rec) => fqdn(rec.content),
    fromPresentation(rdata, origin) {
      const t = tokenize(rdata)
      if (t.length !== 1) fail(`${type} rdata must be one domain name`)
      return { type, content: nameFromPresentation(t[0]!.written, origin) }
    },
  }
}

export const CNAME = hostnameSpec('CNAME', 9007, true, 'target.example.com')
export const NS = hostnameSpec('NS', 9128, false, 'ns1.example.net')
export const PTR = hostnameSpec('PTR', 9130, false, 'host.example.com')
