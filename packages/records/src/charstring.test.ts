import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapeBytes, tokenize } from './charstring.ts'
import { FieldError } from './errors.ts'

/**
 * The RFC 1035 reading of presentation text spelled out one code point at a time: what the
 * tokenizer must decode, octet for octet, and where it must refuse, message for message.
 */
function referenceTokenize(input: string): { bytes: number[]; quoted: boolean }[] {
  const enc = new TextEncoder()
  const ws = new Set([' ', '\t', '\n', '\r'])
  const chars = Array.from(input)
  const tokens: { bytes: number[]; quoted: boolean }[] = []
  let i = 0
  while (i < chars.length) {
    if (ws.has(chars[i]!)) {
      i++
      continue
    }
    const quoted = chars[i] === '"'
    if (quoted) i++
    const out: number[] = []
    let closed = !quoted
    while (i < chars.length) {
      const c = chars[i]!
      if (quoted && c === '"') {
        closed = true
        i++
        break
      }
      if (!quoted && ws.has(c)) break
      if (c === '\\') {
        const e = chars[i + 1]
        if (e === undefined) throw new FieldError('a backslash escape is not complete')
        if (/\d/.test(e)) {
          const digits = chars.slice(i + 1, i + 4).join('')
          if (!/^\d{3}$/.test(digits) || Number(digits) > 255)
            throw new FieldError(`"\\${digits}" is not a valid \\DDD escape`)
          out.push(Number(digits))
          i += 4
        } else {
          out.push(...enc.encode(e))
          i += 2
        }
        continue
      }
      out.push(...enc.encode(c))
      i++
    }
    if (!closed) throw new FieldError('a quoted string is not terminated')
    if (quoted && i < chars.length && !ws.has(chars[i]!))
      throw new FieldError('a closing quote must be followed by a space')
    tokens.push({ bytes: out, quoted })
  }
  return tokens
}

function outcome<T>(fn: () => T): { ok: T } | { error: string } {
  try {
    return { ok: fn() }
  } catch (e) {
    if (e instanceof FieldError) return { error: e.message }
    throw e
  }
}

// Text dense in what the grammar cares about: quotes, backslashes, digits, whitespace, multi-byte
// characters and lone surrogates.
const presentationText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '"',
        '\\',
        ' ',
        '\t',
        '\n',
        '0',
        '2',
        '5',
        '6',
        '9',
        'a',
        ';',
        'é',
        '😀',
        '\ud800',
        '\udc00'
      ),
      fc.constantFrom('\\255', '\\256', '\\000', '\\12', '\\1😀', '\\"', '\\\\'),
      fc.string({ unit: 'binary', maxLength: 4 })
    ),
    { maxLength: 40 }
  )
  .map((parts) => parts.join(''))

describe('tokenize', () => {
  it('decodes every input to the octets, or refuses it with the message, of a code-point-by-code-point reading', () => {
    fc.assert(
      fc.property(presentationText, (input) => {
        const got = outcome(() =>
          tokenize(input).map((t) => ({ bytes: [...t.bytes], quoted: t.quoted }))
        )
        expect(got).toEqual(outcome(() => referenceTokenize(input)))
      }),
      { numRuns: 1000 }
    )
  })

  it('keeps plain text and multi-byte characters of one token together', () => {
    const [t] = tokenize('"v=spf1 include:_spf.example.net ~all é😀"')
    expect(new TextDecoder().decode(t!.bytes)).toBe('v=spf1 include:_spf.example.net ~all é😀')
  })
})

describe('escapeBytes', () => {
  it('escapes exactly quotes, backslashes and control octets of valid UTF-8, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        const want = Array.from(s, (ch) => {
          const cp = ch.codePointAt(0)!
          if (ch === '"' || ch === '\\') return `\\${ch}`
          return cp < 0x20 || cp === 0x7f ? `\\${String(cp).padStart(3, '0')}` : ch
        }).join('')
        expect(escapeBytes(new TextEncoder().encode(s))).toBe(want)
      }),
      { numRuns: 1000 }
    )
  })

  it('writes octets that are not UTF-8 as \\DDD', () => {
    expect(escapeBytes(Uint8Array.from([0x61, 0xff, 0x22]))).toBe('a\\255\\"')
  })
})
