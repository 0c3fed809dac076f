/** @module types/caa: CAA (RFC 8659) — flags, tag, value; content `0 issue "ca.example"`. */
import { z } from 'zod'
import { quote, text, tokenize } from '../charstring.ts'
import { fail } from '../errors.ts'
import { str, text as textField, u8 } from '../fields.ts'
import { numberToken } from './common.ts'
import { defineData } from './define.ts'

const schema = z.object({ flags: u8(), tag: str(), value: textField() })
type CaaData = z.infer<typeof schema>

export const CAA = defineData<CaaData>({
  type: 'CAA',
  errorCode: 9121,
  example: {
    fields: { content: '0 issue "letsencrypt.org"' },
    presentation: '0 issue "letsencrypt.org"',
  },
  dataSchema: schema,
  parseContent(content) {
    const t = tokenize(content)
    if (t.length !== 3) fail('expected "<flags> <tag> \\"<value>\\""')
    const [flags, tag, value] = t.map((x) => text(x.bytes))
    return { data: { flags: numberToken(flags), tag, value } }
  },
  canonicalize(d) {
    const tag = d.tag.toLowerCase()
    if (!/^[a-z0-9]{1,15}$/.test(tag)) fail('data.tag must be 1 to 15 letters or digits')
    return { flags: d.flags, tag, value: d.value }
  },
  formatData: (d) => `${d.flags} ${d.tag} ${quote(d.value)}`,
})
