/**
 * @module Presentation-format building blocks: tokens, character-strings, numbers, hex, base64.
 */

export class TextError extends Error {}

const utf8 = new TextEncoder()

/**
 * `tokenize` of a text of printable ASCII and spaces without quotes or escapes (almost every
 * rdata): the tokens are slices between spaces. Null for any other text.
 */
function plainTokens(text: string): string[] | null {
  const tokens: string[] = []
  let start = -1
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x20) {
      if (start >= 0) tokens.push(text.slice(start, i))
      start = -1
    } else if (c < 0x21 || c > 0x7e || c === 0x22 || c === 0x5c) return null
    else if (start < 0) start = i
  }
  if (start >= 0) tokens.push(text.slice(start))
  return tokens
}

/** Splits on whitespace outside quotes; quotes and escapes stay in the tokens. */
export function tokenize(text: string): string[] {
  const plain = plainTokens(text)
  if (plain) return plain
  const tokens: string[] = []
  let current = ''
  let inToken = false
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (c === '\\') {
      if (i + 1 >= text.length) throw new TextError('dangling escape')
      current += c + text[++i]
      inToken = true
    } else if (c === '"') {
      quoted = !quoted
      current += c
      inToken = true
    } else if (!quoted && /\s/.test(c)) {
      if (inToken) tokens.push(current)
      current = ''
      inToken = false
    } else {
      current += c
      inToken = true
    }
  }
  if (quoted) throw new TextError('unterminated quoted string')
  if (inToken) tokens.push(current)
  return tokens
}

/**
 * Bytes of a character-string token: quotes removed, `\X` and `\DDD` decoded, other text as
 * UTF-8. The text is walked by code point, so a character outside the BMP (a UTF-16 surrogate
 * pair) becomes its one 4-octet UTF-8 sequence, escaped or not.
 */
export function charString(token: string): Uint8Array {
  const body =
    token.length >= 2 && token.startsWith('"') && token.endsWith('"') ? token.slice(1, -1) : token
  const out: number[] = []
  let i = 0
  const nextCodePoint = (): string => {
    const ch = String.fromCodePoint(body.codePointAt(i) as number)
    i += ch.length
    return ch
  }
  while (i < body.length) {
    const c = nextCodePoint()
    if (c === '\\') {
      const digits = /^\d{3}/.exec(body.slice(i, i + 3))
      if (digits) {
        const v = Number(digits[0])
        if (v > 255) throw new TextError(`bad escape \\${digits[0]}`)
        out.push(v)
        i += 3
      } else if (i < body.length) pushUtf8(out, nextCodePoint())
    } else if (c === '"') {
      throw new TextError('unexpected quote')
    } else pushUtf8(out, c)
  }
  return Uint8Array.from(out)
}

/** Appends one code point's UTF-8 octets (ASCII directly: encoding each character costs ~1 µs). */
function pushUtf8(out: number[], ch: string): void {
  const code = ch.charCodeAt(0)
  if (code < 0x80) out.push(code)
  else out.push(...utf8.encode(ch))
}

export function uint(token: string | undefined, max: number, what: string): number {
  if (token === undefined || !/^\d+$/.test(token)) throw new TextError(`${what}: not a number`)
  const v = Number(token)
  if (v > max) throw new TextError(`${what}: out of range`)
  return v
}

export function hex(text: string, what: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw new TextError(`${what}: bad hex`)
  const out = new Uint8Array(text.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16)
  return out
}

export function base64(text: string, what: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) {
    throw new TextError(`${what}: bad base64`)
  }
  let bin: string
  try {
    bin = atob(text)
  } catch {
    throw new TextError(`${what}: bad base64`)
  }
  return Uint8Array.from(bin, (c) => c.charCodeAt(0))
}

/**
 * The one reader of IPv4 text: four dotted decimal octets, each 0 or without leading zeros, at
 * most 255, written into `out`; false when `text` is not one.
 */
/** Reads a dotted-quad IPv4 address into `out`'s first 4 octets; false when `text` is not one. */
export function readIPv4(text: string, out: Uint8Array): boolean {
  let part = 0
  let value = 0
  let digits = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x2e
    if (c === 0x2e) {
      if (digits === 0 || part > 3) return false
      out[part++] = value
      value = 0
      digits = 0
    } else if (c >= 0x30 && c <= 0x39) {
      // a leading zero is allowed only as the whole octet
      if (digits > 0 && value === 0) return false
      value = value * 10 + (c - 0x30)
      if (++digits > 3 || value > 255) return false
    } else return false
  }
  return part === 4
}

const scratch = new Uint8Array(4)

/** Whether `text` is a dotted-quad IPv4 address (the grammar of `ipv4`). */
export const isIPv4 = (text: string): boolean => readIPv4(text, scratch)

/** The 4 octets of a dotted-quad IPv4 address; `TextError` for anything else. */
export function ipv4(text: string): Uint8Array {
  const out = new Uint8Array(4)
  if (!readIPv4(text, out)) throw new TextError(`bad IPv4 address ${text}`)
  return out
}

/**
 * An IPv6 address (RFC 4291 §2.2 text: hex groups, one `::`, an IPv4 tail in the last 32 bits)
 * → its 16 octets. The one parser of IPv6 text: the record model canonicalises AAAA content
 * with it.
 */
export function ipv6(text: string): Uint8Array {
  const bad = (): never => {
    throw new TextError(`bad IPv6 address ${text}`)
  }
  const halves = text.split('::')
  if (halves.length > 2) bad()
  const groups = (part: string, last: boolean): number[] => {
    if (part === '') return []
    const out: number[] = []
    const pieces = part.split(':')
    pieces.forEach((p, i) => {
      if (last && i === pieces.length - 1 && p.includes('.')) {
        const v4 = ipv4(p)
        out.push(
          ((v4[0] as number) << 8) | (v4[1] as number),
          ((v4[2] as number) << 8) | (v4[3] as number)
        )
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(parseInt(p, 16))
      else bad()
    })
    return out
  }
  const head = groups(halves[0] as string, halves.length === 1)
  const tail = halves.length === 2 ? groups(halves[1] as string, true) : []
  const fill = 8 - head.length - tail.length
  if (halves.length === 2 ? fill < 1 : fill !== 0) bad()
  const all = [...head, ...Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail]
  const out = new Uint8Array(16)
  all.forEach((g, i) => {
    out[i * 2] = g >> 8
    out[i * 2 + 1] = g & 0xff
  })
  return out
}
