/**
 * @module Splits values into JSON array texts small enough to bind as one D1 parameter.
 */

/** 600k UTF-16 units stay under D1's 2 MB string limit even if every char took 3 bytes. */
const MAX_CHUNK_CHARS = 600_000

export function jsonChunks(values: readonly unknown[], maxChars = MAX_CHUNK_CHARS): string[] {
  const chunks: string[] = []
  let parts: string[] = []
  let size = 2
  for (const v of values) {
    const s = JSON.stringify(v)
    if (parts.length > 0 && size + s.length + 1 > maxChars) {
      chunks.push(`[${parts.join(',')}]`)
      parts = []
      size = 2
    }
    parts.push(s)
    size += s.length + 1
  }
  if (parts.length > 0) chunks.push(`[${parts.join(',')}]`)
  return chunks
}
