/**
 * @module Splits values into JSON array texts small enough to bind as one D1 parameter.
 */

/** 600k UTF-16 units stay under D1's 2 MB string limit even if every char took 3 bytes. */
export const MAX_CHUNK_CHARS = 600_000

/** Values serialised per JSON.stringify call: one call per value costs more than the values do. */
const GROUP = 64

export function jsonChunks(values: readonly unknown[], maxChars = MAX_CHUNK_CHARS): string[] {
  const chunks: string[] = []
  let parts: string[] = []
  let size = 2
  const add = (s: string): void => {
    if (parts.length > 0 && size + s.length + 1 > maxChars) {
      chunks.push(`[${parts.join(',')}]`)
      parts = []
      size = 2
    }
    parts.push(s)
    size += s.length + 1
  }
  for (let i = 0; i < values.length; i += GROUP) {
    const group = values.slice(i, i + GROUP)
    // The group's elements as they appear inside an array, commas included.
    const inner = JSON.stringify(group).slice(1, -1)
    // Fits whole: the same text and the same split as value by value. Else it is split value by value.
    if (size + inner.length + 1 <= maxChars) add(inner)
    else for (const v of group) add(JSON.stringify(v))
  }
  if (parts.length > 0) chunks.push(`[${parts.join(',')}]`)
  return chunks
}
