/**
 * @module charstring: RFC 1035 presentation tokens — whitespace-separated words or
 * double-quoted character-strings with \" \\ and \DDD escapes — and the inverse quoting.
 */
import { fail } from './errors.ts'

export interface Token {
  /** decoded octets */
  bytes: Uint8Array
  /** the token was written in double quotes */
  quoted: boolean
}

const encoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const WS = new Set([' ', '\t', '\n', '\r'])

export function utf8(s: string): Uint8Array {
  return encoder.encode(s)
}

/** Decode octets as UTF-8 text (invalid sequences become U+FFFD). */
export function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes)
}

/** Split presentation rdata into tokens, decoding escapes. Throws FieldError on bad syntax. */
export function tokenize(input: string): Token[] {
  const chars = Array.from(input)
  const tokens: Token[] = []
  let i = 0
  while (i < chars.length) {
    if (WS.has(chars[i] as string)) {
      i++
      continue
    }
    const quoted = chars[i] === '"'
    if (quoted) i++
    const out: number[] = []
    let closed = !quoted
    while (i < chars.length) {
      const c = chars[i] as string
      if (quoted && c === '"') {
        closed = true
        i++
        break
      }
      if (!quoted && WS.has(c)) break
      if (c === '\\') {
        i = readEscape(chars, i + 1, out)
        continue
      }
      out.push(...utf8(c))
      i++
    }
    if (!closed) fail('a quoted string is not terminated')
    if (quoted && i < chars.length && !WS.has(chars[i] as string)) {
      fail('a closing quote must be followed by a space')
    }
    tokens.push({ bytes: Uint8Array.from(out), quoted })
  }
  return tokens
}

function readEscape(chars: string[], i: number, out: number[]): number {
  const c = chars[i]
  if (c === undefined) fail('a backslash escape is not complete')
  if (/\d/.test(c)) {
    const digits = chars.slice(i, i + 3).join('')
    if (!/^\d{3}$/.test(digits)) fail(`"\\${digits}" is not a valid \\DDD escape`)
    const n = Number(digits)
    if (n > 255) fail(`"\\${digits}" is not a valid \\DDD escape`)
    out.push(n)
    return i + 3
  }
  out.push(...utf8(c))
  return i + 1
}

function escapeCodePoint(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0
  if (ch === '"' || ch === '\\') return `\\${ch}`
  if (cp < 0x20 || cp === 0x7f) return `\\${cp.toString().padStart(3, '0')}`
  return ch
}

/** Escape octets for use inside quotes; valid UTF-8 is kept readable, other bytes become \DDD. */
export function escapeBytes(bytes: Uint8Array): string {
  let s: string | null = null
  try {
    s = strictDecoder.decode(bytes)
  } catch {
    s = null
  }
  if (s !== null) return Array.from(s, escapeCodePoint).join('')
  return Array.from(bytes, (b) =>
    b >= 0x20 && b < 0x7f
      ? escapeCodePoint(String.fromCharCode(b))
      : `\\${String(b).padStart(3, '0')}`
  ).join('')
}

/** One quoted character-string. */
export function quote(value: Uint8Array | string): string {
  return `"${escapeBytes(typeof value === 'string' ? utf8(value) : value)}"`
}

/** Tokens decoded as text (for numeric and name fields). */
export function words(input: string): string[] {
  return tokenize(input).map((t) => text(t.bytes))
}
