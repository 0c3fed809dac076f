/** @module types/mx: MX — record priority plus a mail host or '.' (null MX, RFC 7505). */
import { text, tokenize } from '../charstring.ts'
import { fail } from '../errors.ts'
import { intToken } from '../fields.ts'
import { fqdn, nameFromPresentation } from '../names.ts'
import { TYPE_CODES } from '../record-type.ts'
import type { ContentSpec } from '../spec.ts'
import { targetHost } from './common.ts'

export const MX: ContentSpec = {
  kind: 'content',
  type: 'MX',
  code: TYPE_CODES.MX,
  errorCode: 9009,
  example: {
    fields: { content: 'mx.example.com', priority: 10 },
    presentation: '10 mx.example.com.',
  },
  proxiable: false,
  priority: 'required',
  dataKeys: [],
  parseContent: (content) => targetHost(content, 'content', true),
  toPresentation: (rec) => `${rec.priority ?? 0} ${fqdn(rec.content)}`,
  fromPresentation(rdata, origin) {
    const t = tokenize(rdata)
    if (t.length !== 2) fail('expected "<preference> <exchange>"')
    return {
      type: 'MX',
      priority: intToken(text(t[0]!.bytes), 'preference'),
      content: nameFromPresentation(t[1]!.written, origin),
    }
  },
}
