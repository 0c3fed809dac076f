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

const NEWLINE = 0x0a

/** Whether `bytes` decode as UTF-8 so far (a sequence cut at the end is not yet an error). */
function validPrefix(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true })
    return true
  } catch {
    return false
  }
}

/** Whether `bytes` are UTF-8 ending at a character's end. */
function whole(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
    return true
  } catch {
    return false
  }
}

/**
 * The first invalid sequence of `bytes`, or null when they are UTF-8. Lines are checked one by
 * one; within the failing line a binary search over its prefixes finds the byte (a prefix that
 * fails stays failing when it grows), so a long line costs a logarithmic number of decodes.
 */
export function firstInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | null {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
  let start = 0
  for (let line = 1; start <= bytes.length; line++) {
    let end = bytes.indexOf(NEWLINE, start)
    if (end === -1) end = bytes.length
    const text = bytes.subarray(start, end)
    try {
      strict.decode(text)
    } catch {
      let lo = 0 // the longest prefix known valid
      let hi = text.length // a prefix known invalid
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1
        if (validPrefix(text.subarray(0, mid))) lo = mid
        else hi = mid
      }
      // The longest valid prefix may end inside a sequence (at most three bytes): the bad
      // sequence starts after the last whole character.
      let at = lo
      while (at > 0 && lo - at < 3 && !whole(text.subarray(0, at))) at--
      const before = new TextDecoder().decode(text.subarray(0, at))
      return { line, column: [...before].length + 1, byte: text[at]! }
    }
    start = end + 1
  }
  return null
}
