/**
 * @module txt: TXT content <-> character-strings.
 *
 * TXT `content` is kept as the client sent it (trimmed), in one of two forms, as Cloudflare does:
 * - unquoted (anything not starting with a double quote): one text, taken literally — spaces,
 *   quotes and backslashes are part of it — and put on the wire as its UTF-8 octets split into
 *   character-strings of at most 255 octets (at a UTF-8 character boundary where one is near);
 * - quoted (starting with a double quote): RFC 1035 presentation, a list of character-strings
 *   (quoted or bare words, `\"`, `\\` and `\DDD` escapes); a string over 255 octets is split.
 * The presentation form (zone files, KV, DoH JSON) is always the quoted list (`txtPresentation`);
 * a zone file's strings become the unquoted form when that form means exactly the same strings.
 */
import { concatBytes } from '@edgedns/dns-wire'
import { escapeBytes, tokenize, utf8 } from './charstring.ts'

const MAX_CHAR_STRING = 255

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
 * text. Strings longer than 255 octets are split.
 * @example parseTxtStrings('"a b" "c"') // [bytes('a b'), bytes('c')]
 * @example parseTxtStrings('a b "c"') // [bytes('a b "c"')]
 */
export function parseTxtStrings(content: string): Uint8Array[] {
  const c = content.trim()
  const parts = c.startsWith('"') ? tokenize(c).map((t) => t.bytes) : [utf8(c)]
  return parts.flatMap(chunk)
}

/** Presentation form of character-strings: each quoted, joined by single spaces. */
export function formatTxtStrings(parts: Uint8Array[]): string {
  return parts.map((p) => `"${escapeBytes(p)}"`).join(' ')
}

/**
 * The RFC 1035 presentation of TXT `content`, quoted or not: what zone files, KV and the DoH JSON
 * API show, and what makes two TXT records the same RR (`acme` and `"acme"` are one RR).
 * @example txtPresentation('v=spf1 mx -all') // '"v=spf1 mx -all"'
 */
export function txtPresentation(content: string): string {
  return formatTxtStrings(parseTxtStrings(content))
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function sameStrings(a: Uint8Array[], b: Uint8Array[]): boolean {
  return (
    a.length === b.length &&
    a.every((p, i) => p.length === b[i]!.length && p.every((x, j) => x === b[i]![j]))
  )
}

/**
 * TXT `content` for character-strings read from presentation (a zone file): the unquoted text when
 * that text means exactly these strings on the wire (one text, split only where an unquoted
 * content would be split), otherwise the presentation form. So a record exports and re-imports to the content the API
 * stores for it when the text is sent unquoted, as ACME clients and most tools send it.
 * @example txtContentFromStrings([bytes('acme')]) // 'acme'
 * @example txtContentFromStrings([bytes('a'), bytes('b')]) // '"a" "b"'
 */
export function txtContentFromStrings(strings: Uint8Array[]): string {
  const parts = strings.flatMap(chunk)
  const joined = concatBytes(parts)
  let text: string | null = null
  try {
    text = strictUtf8.decode(joined)
  } catch {
    text = null
  }
  if (
    text !== null &&
    text !== '' &&
    text === text.trim() &&
    !text.startsWith('"') &&
    sameStrings(parseTxtStrings(text), parts)
  ) {
    return text
  }
  return formatTxtStrings(parts)
}
