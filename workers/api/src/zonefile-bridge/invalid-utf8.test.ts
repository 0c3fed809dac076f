import { describe, expect, it } from 'vitest'
import { firstInvalidUtf8 } from './invalid-utf8.ts'

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p))
  )

describe('firstInvalidUtf8', () => {
  it('is null for UTF-8, multi-byte characters and an empty input included', () => {
    expect(firstInvalidUtf8(bytes('a\nhé 😀\n'))).toBeNull()
    expect(firstInvalidUtf8(new Uint8Array())).toBeNull()
  })

  it('names the line, the column in characters and the byte of a Latin-1 letter', () => {
    // "; Geändert" in Latin-1 on line 2, after a line with a two-byte character.
    expect(firstInvalidUtf8(bytes('é\n; Ge', [0xe4], 'ndert\n'))).toEqual({
      line: 2,
      column: 5,
      byte: 0xe4,
    })
  })

  it('points at a lead byte cut short, not at the byte after it', () => {
    expect(firstInvalidUtf8(bytes('bad TXT "a', [0xc3, 0x28], '"'))).toEqual({
      line: 1,
      column: 11,
      byte: 0xc3,
    })
  })

  it('finds a stray continuation byte, and a cut sequence at the very end', () => {
    expect(firstInvalidUtf8(bytes('x\n\nab', [0x80]))).toEqual({ line: 3, column: 3, byte: 0x80 })
    expect(firstInvalidUtf8(bytes('ok', [0xe2, 0x82]))).toEqual({ line: 1, column: 3, byte: 0xe2 })
  })

  it('finds the byte in a long line', () => {
    const long = 'a'.repeat(200_000)
    expect(firstInvalidUtf8(bytes(long, [0xff], long))).toEqual({
      line: 1,
      column: 200_001,
      byte: 0xff,
    })
  })
})
