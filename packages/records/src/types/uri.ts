/**
 * @module types/uri: URI (RFC 7553). Record-level priority; data {weight, target};
 * content `weight "target"`, presentation `priority weight "target"`.
 */
import { z } from 'zod'
import { quote, text, tokenize } from '../charstring.ts'
import { fail } from '../errors.ts'
import { text as textField, u16 } from '../fields.ts'
import type { StoredRecord } from '../spec.ts'
import { numberToken } from './common.ts'
import { defineData } from './define.ts'

const schema = z.object({ weight: u16(), target: textField() })
type UriData = z.infer<typeof schema>

function parse(content: string): { priority?: number; data: Record<string, unknown> } {
  const t = tokenize(content).map((x) => text(x.bytes))
  if (t.length === 2) return { data: { weight: numberToken(t[0]), target: t[1] } }
  if (t.length === 3) {
    const priority = numberToken(t[0])
    return { priority, data: { weight: numberToken(t[1]), target: t[2] } }
  }
  return fail('expected "<weight> \\"<target>\\"" (or with a leading priority)')
}

export const URI = defineData<UriData>({
  type: 'URI',
  errorCode: 9136,
  example: { fields: { content: '1 "https://x"', priority: 10 }, presentation: '10 1 "https://x"' },
  priority: 'required',
  dataSchema: schema,
  parseContent: (content) => parse(content),
  canonicalize(d) {
    // eslint-disable-next-line no-control-regex
    if (d.target === '' || /[\x00-\x20\x7f]/.test(d.target)) {
      fail('data.target must be a non-empty URI without spaces or control characters')
    }
    return d
  },
  formatData: (d) => `${d.weight} ${quote(d.target)}`,
  toPresentation(rec: StoredRecord) {
    const d = rec.data as UriData
    return `${rec.priority ?? 0} ${d.weight} ${quote(d.target)}`
  },
  fromPresentation(rdata) {
    const p = parse(rdata)
    if (p.priority === undefined) fail('expected "<priority> <weight> \\"<target>\\""')
    return { type: 'URI', priority: p.priority, data: p.data }
  },
})
