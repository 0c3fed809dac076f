/**
 * @module One `GET /zones` page from several shards: each shard returns its own page in the
 * requested order (sort value, then name), and the pages are merged into the first `limit` rows of
 * the combined order, the order one database would have given. Text compares as SQLite's BINARY
 * collation does (UTF-8 bytes), so the merge agrees with each shard's ORDER BY and with the cursor
 * conditions (`>`/`<`) the next page is read with.
 */

export interface ListedZone {
  id: string
  name: string
  sort: unknown
}

const utf8 = new TextEncoder()
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/

/** SQLite's BINARY collation: memcmp of UTF-8 (equal to code-unit order for ASCII text). */
export function compareBinary(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0
  const x = utf8.encode(a)
  const y = utf8.encode(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

function compareValue(a: unknown, b: unknown): number {
  if (a === b) return 0
  // NULL sorts first in SQLite, as in the shards' own ORDER BY.
  if (a === null || a === undefined) return -1
  if (b === null || b === undefined) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return compareBinary(String(a), String(b))
}

/** The first `limit` rows of the shards' pages in one order (`direction` of sort, then name). */
export function mergeShardPages(
  pages: ListedZone[][],
  direction: 'ASC' | 'DESC',
  limit: number
): ListedZone[] {
  const sign = direction === 'ASC' ? 1 : -1
  return pages
    .flat()
    .sort((a, b) => sign * (compareValue(a.sort, b.sort) || compareBinary(a.name, b.name)))
    .slice(0, limit)
}
