/** @module types/txt: TXT (character-strings) and OPENPGPKEY (one base64 key). */
import { tokenize, words } from '../charstring.ts'
import { parseBase64 } from '../encoding.ts'
import { fail } from '../errors.ts'
import { TYPE_CODES } from '../record-type.ts'
import type { ContentSpec } from '../spec.ts'
import { parseTxtStrings, txtContentFromStrings, txtPresentation } from '../txt.ts'
import { isWellFormedText, NOT_WELL_FORMED } from '../well-formed.ts'
import { KEY_EXAMPLE } from './examples.ts'

/** RFC limit on one record's wire size, which bounds TXT rdata. */
const MAX_TXT_WIRE = 4096

export const TXT: ContentSpec = {
  kind: 'content',
  type: 'TXT',
  code: TYPE_CODES.TXT,
  errorCode: 9135,
  example: { fields: { content: '"a" "b"' }, presentation: '"a" "b"' },
  proxiable: false,
  priority: 'none',
  dataKeys: [],
  // Content is kept as sent, quoted or not (see txt.ts); it is checked, not rewritten.
  parseContent(content) {
    if (!isWellFormedText(content)) fail(`content ${NOT_WELL_FORMED}`)
    const parts = parseTxtStrings(content)
    const wire = parts.reduce((n, p) => n + 1 + p.length, 0)
    if (wire > MAX_TXT_WIRE)
      fail(`content is ${wire} octets on the wire; the limit is ${MAX_TXT_WIRE}`)
    return content
  },
  toPresentation: (rec) => txtPresentation(rec.content),
  fromPresentation(rdata) {
    const tokens = tokenize(rdata)
    if (tokens.length === 0) fail('TXT rdata needs at least one character-string')
    return { type: 'TXT', content: txtContentFromStrings(tokens.map((t) => t.bytes)) }
  },
}

export const OPENPGPKEY: ContentSpec = {
  kind: 'content',
  type: 'OPENPGPKEY',
  code: TYPE_CODES.OPENPGPKEY,
  errorCode: 9129,
  example: { fields: { content: KEY_EXAMPLE }, presentation: KEY_EXAMPLE },
  proxiable: false,
  priority: 'none',
  dataKeys: [],
  parseContent: (content) => parseBase64(content, 'content'),
  toPresentation: (rec) => rec.content,
  fromPresentation: (rdata) => ({ type: 'OPENPGPKEY', content: words(rdata).join('') }),
}
