/**
 * @module An AXFR into a zone that holds a copy, applied as its difference from that copy (BIND's
 * `ixfr-from-differences` on a secondary): records present in both, to the TTL and data, stay as
 * they are (with their ids); the others are deleted and added as an IXFR's would be, and logged
 * record by record, so the builder rebuilds only the names that changed. A primary that answers
 * every IXFR with the whole zone (PowerDNS 4.7), a BIND primary of a zone reloaded from its file
 * without a journal, or a peer asked AXFR only (Cloudflare's default), then costs a change's worth
 * of build, not the zone's.
 *
 * The incoming records are known by their fingerprints (record-fingerprints.ts), kept while the
 * AXFR was received; the held ones are read from D1 in identity-index pages, each looked up among
 * them. Deletions are staged as they are found; additions, the incoming records no held one
 * matched, are read back from the AXFR's staged rows. A difference of more records than a commit
 * logs one by one is not staged: the zone is then replaced whole.
 */
import type { Fingerprints } from './record-fingerprints.ts'
import type { StagedList } from './staged-list.ts'
import { COUNT_RECORDS, HELD_CHARS, HELD_PAGE, stagedKey, stagedValue } from './staged-records.ts'

/** A page of the held copy: at most this many records, and about this many characters. */
const HELD_PAGE_ROWS = 10_000
const HELD_PAGE_CHARS = 1_000_000

/**
 * The records the next page of the held copy (after `after`) reads: HELD_PAGE_ROWS, or fewer, down
 * to one, until their characters come to at most HELD_PAGE_CHARS, so that a page of long records
 * is no larger than one of short ones; 0 when none are left.
 */
async function pageRows(d: DifferenceInput, after: unknown[]): Promise<number> {
  for (let rows = HELD_PAGE_ROWS; ;) {
    const size = await d.db
      .prepare(HELD_CHARS)
      .bind(d.zoneId, ...after, rows)
      .first<{ chars: number; n: number }>()
    const { chars, n } = size ?? { chars: 0, n: 0 }
    if (n <= 1 || chars <= HELD_PAGE_CHARS) return n
    rows = Math.max(1, Math.min(n - 1, Math.floor((n * HELD_PAGE_CHARS) / chars)))
  }
}

/** The held copy read to find the difference, and the lists the difference is staged to. */
export interface DifferenceInput {
  db: D1Database
  zoneId: string
  /** The AXFR's records, as received (fingerprints and staged rows, in the same order). */
  incoming: Fingerprints
  incomingRows: StagedList
  /** The most records the difference may hold (deleted and added). */
  maxChanges: number
  dels: StagedList
  adds: StagedList
}

/**
 * Stages the difference from the copy held to the AXFR: the held records no incoming one equals
 * to `dels`, the incoming ones no held one equals to `adds`. False, with the lists left partly
 * written (the caller discards them), when the zone holds no record, or the difference holds more
 * than `maxChanges` records. A record the AXFR holds more than once, to the TTL and data, counts
 * once. Two incoming records of one identity that differ in TTL are both staged; adding them then
 * fails the commit's EXACT guard, and the zone is replaced whole, as the records' identity index
 * resolves such an AXFR.
 */
export async function stageDifference(d: DifferenceInput): Promise<boolean> {
  const count = await d.db.prepare(COUNT_RECORDS).bind(d.zoneId).first<{ n: number }>()
  const heldCount = count?.n ?? 0
  if (heldCount === 0 || Math.abs(heldCount - d.incoming.size) > d.maxChanges) return false
  const matched = new Uint8Array(d.incoming.size)
  let deletions = 0
  let after: unknown[] = ['', '', '', -2]
  for (;;) {
    const rows = await pageRows(d, after)
    if (rows === 0) break
    const { results } = await d.db
      .prepare(HELD_PAGE)
      .bind(d.zoneId, ...after, rows)
      .all<{ r: string; plain: 0 | 1 }>()
    let row: unknown[] = []
    for (const h of results) {
      row = JSON.parse(h.r) as unknown[]
      // A record a transfer would not have written (a comment, tags) is never the same as one.
      const i = h.plain === 1 ? d.incoming.find(stagedValue(row)) : -1
      if (i >= 0 && matched[i] === 0) matched[i] = 1
      else if (++deletions > d.maxChanges) return false
      else await d.dels.addJson(h.r)
    }
    if (results.length < rows) break
    after = stagedKey(row)
  }
  const additions: number[] = []
  for (let i = 0; i < matched.length; i++) {
    // A record the AXFR holds twice (a PowerDNS primary's database may) is added once, as a
    // whole replacement keeps it once.
    if (matched[i] === 1 || d.incoming.firstEqual(i) !== i) continue
    if (deletions + additions.push(i) > d.maxChanges) return false
  }
  for await (const json of d.incomingRows.recordsAt(additions)) await d.adds.addJson(json)
  await d.dels.flush()
  await d.adds.flush()
  return true
}
