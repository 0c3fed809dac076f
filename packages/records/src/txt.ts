/**
 * @module txt: TXT content <-> character-strings. Canonical content is one or more quoted
 * character-strings (<= 255 octets each) separated by single spaces.
 */
import { escapeBytes, tokenize, utf8 } from './charstring.ts'

export const MAX_CHAR_STRING = 255

/** Split octets into <= 255-octet chunks, preferring UTF-8 character boundaries. */
function chunk(bytes: Uint8Array): Uint8Array[] {
  if (bytes.length <= MAX_CHAR_STRING) return [bytes]
  const out: Uint8Array[] = []
  let start = 0
  while (bytes.length - start > MAX_CHAR_STRING) {
    let end = start + MAX_CHAR_STRING
    // back off while the next byte continues a UTF-8 sequence (10xxxxxx)
    let back = end
    while (back > start && ((bytes[back] ?? 0) & 0xc0) === 0x80) back--
    if (back > start) end = back
    out.push(bytes.subarray(start, end))
    start = end
  }
  out.push(bytes.subarray(start))
  return out
}

/**
 * Decoded octets of each character-string in TXT `content`. Content starting with a double quote
 * is read as RFC 1035 presentation (quoted and bare words, escapes); anything else is one literal
 * string. Strings longer than 255 octets are split.
 * @example parseTxtStrings('"a b" "c"') // [bytes('a b'), bytes('c')]
 */
export function parseTxtStrings(content: string): Uint8Array[] {
  const c = content.trim()
  const parts = c.startsWith('"') ? tokenize(c).map((t) => t.bytes) : [utf8(c)]
  return parts.flatMap(chunk)
}

/** Canonical TXT content for character-strings: each quoted, joined by single spaces. */
export function formatTxtStrings(parts: Uint8Array[]): string {
  return parts.map((p) => `"${escapeBytes(p)}"`).join(' ')
}
