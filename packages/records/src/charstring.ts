/**
 * @module charstring: RFC 1035 presentation tokens — whitespace-separated words or
 * double-quoted character-strings with \" \\ and \DDD escapes — and the inverse quoting.
 */
import { concatBytes } from '@edgedns/dns-wire'
import { fail } from './errors.ts'

export interface Token {
  /** decoded octets */
  bytes: Uint8Array
  /** the token was written in double quotes */
  quoted: boolean
  /** the token as written, escapes undecoded, without its surrounding quotes */
  written: string
}

const encoder = new TextEncoder()
const lenientDecoder = new TextDecoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

export function utf8(s: string): Uint8Array {
  return encoder.encode(s)
}

/** Decode octets as UTF-8 text (invalid sequences become U+FFFD). */
export function text(bytes: Uint8Array): string {
  return lenientDecoder.decode(bytes)
}

/** Decode octets as UTF-8 text, or null when they are not valid UTF-8. */
export function strictText(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes)
  } catch {
    return null
  }
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Octets collected for one token: runs of plain text are encoded whole, escapes byte by byte. */
class TokenBytes {
  private parts: Uint8Array[] = []
  private pending: number[] = []

  text(s: string): void {
    if (s === '') return
    this.flush()
    const b = encoder.encode(s)
    this.parts.push(b)
  }

  byte(n: number): void {
    this.pending.push(n)
  }

  done(): Uint8Array {
    this.flush()
    return this.parts.length === 1 ? this.parts[0]! : concatBytes(this.parts)
  }

  private flush(): void {
    if (this.pending.length === 0) return
    const b = Uint8Array.from(this.pending)
    this.parts.push(b)
    this.pending = []
  }
}

/**
 * Split presentation rdata into tokens, decoding escapes. Throws FieldError on bad syntax.
 * Every delimiter (space, tab, CR, LF, '"', '\') is ASCII, so the scan goes by UTF-16 unit and
 * never splits a surrogate pair; the text between delimiters is encoded in one piece.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = []
  const n = input.length
  let i = 0
  while (i < n) {
    if (isSpace(input.charCodeAt(i))) {
      i++
      continue
    }
    const quoted = input.charCodeAt(i) === QUOTE
    if (quoted) i++
    const out = new TokenBytes()
    let closed = !quoted
    let run = i
    const from = i
    let to = -1
    while (i < n) {
      const c = input.charCodeAt(i)
      if (quoted && c === QUOTE) {
        out.text(input.slice(run, i))
        closed = true
        to = i
        i++
        run = i
        break
      }
      if (!quoted && isSpace(c)) break
      if (c === BACKSLASH) {
        out.text(input.slice(run, i))
        i = readEscape(input, i + 1, out)
        run = i
        continue
      }
      i++
    }
    if (run < i) out.text(input.slice(run, i))
    if (!closed) fail('a quoted string is not terminated')
    if (quoted && i < n && !isSpace(input.charCodeAt(i))) {
      fail('a closing quote must be followed by a space')
    }
    const written = input.slice(from, to < 0 ? i : to)
    tokens.push({ bytes: out.done(), quoted, written })
  }
  return tokens
}

/**
 * Octets of a character-string's text without its surrounding quotes: `\DDD` and `\X` escapes
 * decoded, everything else taken literally as UTF-8. Throws FieldError on a bad escape.
 */
export function unescapeText(input: string): Uint8Array {
  const out = new TokenBytes()
  let run = 0
  let i = 0
  while (i < input.length) {
    if (input.charCodeAt(i) === BACKSLASH) {
      out.text(input.slice(run, i))
      i = readEscape(input, i + 1, out)
      run = i
    } else i++
  }
  out.text(input.slice(run))
  return out.done()
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

/** Reads the escape after a backslash at `i`; returns the index after it. */
function readEscape(input: string, i: number, out: TokenBytes): number {
  if (i >= input.length) fail('a backslash escape is not complete')
  if (isDigit(input.charCodeAt(i))) {
    if (
      i + 3 > input.length ||
      !isDigit(input.charCodeAt(i + 1)) ||
      !isDigit(input.charCodeAt(i + 2))
    ) {
      // the (up to) three characters after the backslash, whole code points, for the message
      const digits = Array.from(input.slice(i, i + 6))
        .slice(0, 3)
        .join('')
      fail(`"\\${digits}" is not a valid \\DDD escape`)
    }
    const digits = input.slice(i, i + 3)
    const value = Number(digits)
    if (value > 255) fail(`"\\${digits}" is not a valid \\DDD escape`)
    out.byte(value)
    return i + 3
  }
  const cp = input.codePointAt(i)!
  const ch = String.fromCodePoint(cp)
  if (cp < 0x80) out.byte(cp)
  else out.text(ch)
  return i + ch.length
}

function escapeCodePoint(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0
  if (ch === '"' || ch === '\\') return `\\${ch}`
  if (cp < 0x20 || cp === 0x7f) return `\\${cp.toString().padStart(3, '0')}`
  return ch
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\x00-\x1f\x7f]/

/** Escape octets for use inside quotes; valid UTF-8 is kept readable, other bytes become \DDD. */
export function escapeBytes(bytes: Uint8Array): string {
  let s: string | null = null
  try {
    s = strictDecoder.decode(bytes)
  } catch {
    s = null
  }
  if (s !== null) return NEEDS_ESCAPE.test(s) ? Array.from(s, escapeCodePoint).join('') : s
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
