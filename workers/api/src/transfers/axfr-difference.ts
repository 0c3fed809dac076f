/**
 * @module An AXFR into a zone that holds a copy, applied as its difference from that copy (BIND's
 * `ixfr-from-differences` on a secondary): records present in both, to the TTL and data, stay as
 * they are (with their ids); the others are deleted and added as an IXFR's would be, and logged
 * record by record, so the builder rebuilds only the names that changed. A primary that answers
 * every IXFR with the whole zone (PowerDNS 4.7), or a BIND primary of a zone reloaded from its file
 * without a journal, then costs a change's worth of build, not the zone's.
 *
 * Both sides are held in memory, so only while each has at most `limit` records and a bounded
 * number of characters (the incoming ones are kept, as the JSON they are staged as, see
 * TransferStage); a larger zone, or a difference of more
 * records than a commit logs one by one, is replaced whole, as before.
 */
import {
  COUNT_RECORDS,
  HELD_PAGE,
  HELD_SIZE,
  stagedIdentity,
  stagedKey,
  stagedValue,
} from './staged-records.ts'

/** Records read from D1 per page of the held copy. */
const HELD_PAGE_ROWS = 2000

/** The held records, as staged rows (JSON), to delete; the incoming ones to add. */
export interface Difference {
  deletions: string[]
  additions: string[]
}

/**
 * The zone's records as staged rows (JSON) by `stagedValue`; null when it holds more than
 * `limit` records, or names, contents and data of more than `maxChars` characters (the map holds
 * each about twice). A record a transfer would not have written (a comment, tags) is keyed by its
 * id, so that no incoming record is ever the same as it.
 */
export async function heldCopy(
  db: D1Database,
  zoneId: string,
  limit: number,
  maxChars: number
): Promise<Map<string, string> | null> {
  const count = await db.prepare(COUNT_RECORDS).bind(zoneId).first<{ n: number }>()
  if ((count?.n ?? 0) > limit) return null
  const size = await db.prepare(HELD_SIZE).bind(zoneId).first<{ chars: number }>()
  if ((size?.chars ?? 0) > maxChars) return null
  const out = new Map<string, string>()
  let after: unknown[] = ['', '', '', -2]
  for (;;) {
    const { results } = await db
      .prepare(HELD_PAGE)
      .bind(zoneId, ...after, HELD_PAGE_ROWS)
      .all<{ r: string; plain: 0 | 1 }>()
    let row: unknown[] = []
    for (const h of results) {
      row = JSON.parse(h.r) as unknown[]
      out.set(h.plain === 1 ? stagedValue(row) : `\u0001${String(row[0])}`, h.r)
    }
    if (out.size > limit) return null
    if (results.length < HELD_PAGE_ROWS) return out
    after = stagedKey(row)
  }
}

/**
 * The difference from the held records (`heldCopy`, emptied of those that stay) to the incoming
 * ones (staged rows as JSON), or null when it has more than `maxChanges` records, or when two
 * incoming records have one identity (a primary's AXFR holds each record once; such a transfer is
 * replaced whole, as the records' identity index resolves it).
 */
export function difference(
  held: Map<string, string>,
  incoming: readonly string[],
  maxChanges: number
): Difference | null {
  const identities = new Set<string>()
  const additions: string[] = []
  for (const json of incoming) {
    const row = JSON.parse(json) as unknown[]
    const identity = stagedIdentity(row)
    if (identities.has(identity)) return null
    identities.add(identity)
    const value = stagedValue(row)
    if (held.has(value)) held.delete(value)
    else if (additions.push(json) > maxChanges) return null
  }
  const deletions = [...held.values()]
  return deletions.length + additions.length > maxChanges ? null : { deletions, additions }
}
