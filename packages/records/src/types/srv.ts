/**
 * @module types/srv: SRV (RFC 2782). Cloudflare content is `weight port target` and the
 * priority travels in data.priority and the record-level `priority`.
 */
import { z } from 'zod'
import { text, tokenize, type Token } from '../charstring.ts'
import { fail } from '../errors.ts'
import { str, u16 } from '../fields.ts'
import { decodeName, fqdn, nameFromPresentation } from '../names.ts'
import { numberToken, targetHost } from './common.ts'
import { defineData } from './define.ts'

const schema = z.object({ priority: u16(), weight: u16(), port: u16(), target: str() })
type SrvData = z.infer<typeof schema>

/** Numbers decoded; the target as written, for the name rules of decodeName/nameFromPresentation. */
function split(input: string): { numbers: string[]; target: string } | null {
  const t = tokenize(input)
  if (t.length < 1) return null
  const last = t[t.length - 1] as Token
  return { numbers: t.slice(0, -1).map((x) => text(x.bytes)), target: last.written }
}

export const SRV = defineData<SrvData>({
  type: 'SRV',
  errorCode: 9036,
  example: {
    fields: { data: { priority: 10, weight: 5, port: 5223, target: 'server.example.com' } },
    presentation: '10 5 5223 server.example.com.',
  },
  priority: 'data',
  dataSchema: schema,
  parseContent(content, priority) {
    const s = split(content)
    const w = s?.numbers ?? []
    const target = s === null ? '' : decodeName(s.target)
    if (w.length === 2) {
      const [weight, port] = w
      return { data: { priority, weight: numberToken(weight), port: numberToken(port), target } }
    }
    if (w.length === 3) {
      const [prio, weight, port] = w
      const data = {
        priority: numberToken(prio),
        weight: numberToken(weight),
        port: numberToken(port),
        target,
      }
      return { data }
    }
    return fail('expected "<weight> <port> <target>" (or with a leading priority)')
  },
  canonicalize: (d) => ({ ...d, target: targetHost(d.target, 'data.target', true) }),
  formatData: (d) => `${d.weight} ${d.port} ${d.target}`,
  toPresentation(rec) {
    const d = rec.data as SrvData
    return `${d.priority} ${d.weight} ${d.port} ${fqdn(d.target)}`
  },
  fromPresentation(rdata, origin) {
    const s = split(rdata)
    if (s?.numbers.length !== 3) fail('expected "<priority> <weight> <port> <target>"')
    const [priority, weight, port] = s.numbers
    return {
      type: 'SRV',
      data: {
        priority: numberToken(priority),
        weight: numberToken(weight),
        port: numberToken(port),
        target: nameFromPresentation(s.target, origin),
      },
    }
  },
})
