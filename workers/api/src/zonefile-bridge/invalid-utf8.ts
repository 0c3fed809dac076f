/**
 * @module Where a byte sequence stops being UTF-8, as a line and column a user can find in their
 * file (an import refused for one Latin-1 byte in a comment should say where that byte is).
 */

/** The first byte that is not UTF-8: its line, its column in characters, and its value. */
export interface InvalidUtf8 {
  line: number
  column: number
  byte: number
}

/**
 * Length of the UTF-8 sequence starting at `at` (1 to 4), or 0 when it is not one: the ranges of
 * the Encoding Standard's decoder (no overlong forms, no surrogates, nothing above U+10FFFF), so
 * a position this finds is where a strict TextDecoder fails.
 */
function sequenceAt(bytes: Uint8Array, at: number): number {
  const b = bytes[at]!
  if (b < 0x80) return 1
  let n: number
  let lo = 0x80
  let hi = 0xbf
  if (b >= 0xc2 && b <= 0xdf) n = 2
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3
    if (b === 0xe0) lo = 0xa0
    if (b === 0xed) hi = 0x9f
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4
    if (b === 0xf0) lo = 0x90
    if (b === 0xf4) hi = 0x8f
  } else return 0
  if (at + n > bytes.length) return 0
  const second = bytes[at + 1]!
  if (second < lo || second > hi) return 0
  for (let k = 2; k < n; k++) if ((bytes[at + k]! & 0xc0) !== 0x80) return 0
  return n
}

/**
 * The first invalid sequence of `bytes`, or null when they are UTF-8: one pass over the bytes,
 * counting lines and characters, without decoding them into strings (a file can be tens of MB).
 */
export function firstInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | null {
  let line = 1
  let column = 1
  for (let at = 0; at < bytes.length;) {
    const n = sequenceAt(bytes, at)
    if (n === 0) return { line, column, byte: bytes[at]! }
    if (bytes[at] === 0x0a) {
      line++
      column = 1
    } else column++
    at += n
  }
  return null
}
