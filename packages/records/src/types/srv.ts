/**
 * @module types/srv: SRV (RFC 2782). Cloudflare content is `weight port target` and the
 * priority travels in data.priority and the record-level `priority`.
 */
import { z } from 'zod'
import { words } from '../charstring.ts'
import { fail } from '../errors.ts'
import { str, u16 } from '../fields.ts'
import { absolutize, fqdn } from '../names.ts'
import { numberToken, targetHost } from './common.ts'
import { defineData } from './define.ts'

const schema = z.object({ priority: u16(), weight: u16(), port: u16(), target: str() })
type SrvData = z.infer<typeof schema>

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
    const w = words(content)
    if (w.length === 3) {
      const [weight, port, target] = w
      return { data: { priority, weight: numberToken(weight), port: numberToken(port), target } }
    }
    if (w.length === 4) {
      const [prio, weight, port, target] = w
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
    const w = words(rdata)
    if (w.length !== 4) fail('expected "<priority> <weight> <port> <target>"')
    const [priority, weight, port, target] = w
    return {
      type: 'SRV',
      data: {
        priority: numberToken(priority),
        weight: numberToken(weight),
        port: numberToken(port),
        target: absolutize(target as string, origin),
      },
    }
  },
})
