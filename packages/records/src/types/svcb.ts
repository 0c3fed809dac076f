/**
 * @module types/svcb: SVCB and HTTPS (RFC 9460) — data {priority, target, value};
 * content `priority target params`, e.g. `1 . alpn="h2,h3"`; the target is kept fully qualified
 * (`2 svc.example.net. alpn=h3`), as Cloudflare answers it.
 */
import { z } from 'zod'
import { fail } from '../errors.ts'
import { str, text, u16 } from '../fields.ts'
import { fqdn, nameFromPresentation } from '../names.ts'
import type { StoredRecord, TypeExample } from '../spec.ts'
import { formatSvcParams, parseSvcParams, presentSvcParams } from '../svcparams.ts'
import { numberToken, targetHost } from './common.ts'
import { defineData } from './define.ts'

const schema = z.object({ priority: u16(), target: str(), value: text().optional() })
type SvcbData = { priority: number; target: string; value: string }

function split(rdata: string): [string, string, string] {
  const m = /^(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(rdata.trim())
  if (!m) fail('expected "<priority> <target> [params]"')
  return [m[1] as string, m[2] as string, m[3] as string]
}

function svcbLike(type: 'SVCB' | 'HTTPS', errorCode: number, example: TypeExample) {
  return defineData<SvcbData>({
    type,
    errorCode,
    example,
    priority: 'data',
    dataSchema: schema as unknown as z.ZodObject & z.ZodType<SvcbData>,
    parseContent(content) {
      const [priority, target, value] = split(content)
      return { data: { priority: numberToken(priority), target, value } }
    },
    canonicalize(d) {
      // Cloudflare keeps the target fully qualified (trailing dot), so tools that diff desired state
      // against the API (octoDNS, Terraform) see the value they wrote.
      const target = fqdn(targetHost(d.target, 'data.target', true))
      const value = formatSvcParams(parseSvcParams(d.value ?? ''))
      if (d.priority === 0 && value !== '') {
        fail('data.value must be empty when data.priority is 0 (AliasMode)')
      }
      return { priority: d.priority, target, value }
    },
    formatData: (d) => `${d.priority} ${d.target} ${d.value}`.trimEnd(),
    toPresentation(rec: StoredRecord) {
      const d = rec.data as SvcbData
      // Canonical, key names newer than dohpath as keyNNNNN (which every reader knows); a value an
      // earlier parser stored is rewritten in today's form, or refused when it is not valid even so.
      return `${d.priority} ${fqdn(d.target)} ${presentSvcParams(d.value)}`.trimEnd()
    },
    fromPresentation(rdata, origin) {
      const [priority, target, value] = split(rdata)
      return {
        type,
        data: {
          priority: numberToken(priority),
          target: nameFromPresentation(target, origin),
          value,
        },
      }
    },
  })
}

export const SVCB = svcbLike('SVCB', 9133, {
  fields: { content: '2 svc.example.net alpn="h3,h2" port=8443' },
  presentation: '2 svc.example.net. alpn="h3,h2" port=8443',
})
export const HTTPS = svcbLike('HTTPS', 9125, {
  fields: { content: '1 . alpn="h2,h3"' },
  presentation: '1 . alpn="h2,h3"',
})
