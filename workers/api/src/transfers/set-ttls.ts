/**
 * @module One TTL per RRset in an outgoing AXFR, as the edge serves a set and the export writes it
 * (builder/values.ts `nodeFromRows`, zonefile-bridge/export-zone.ts): every record of a set carries
 * the smallest of its records' served TTLs (automatic, 1, already served as AUTO_TTL_SECONDS). A
 * transfer's records come in transfer order (name_rev, type, …), so a set's records are neighbours;
 * a set may cross a page boundary, so the last set of a page is held (`takeLastSet`) and sent with
 * the next page. Records that cannot be transferred never reach here and do not count, as the
 * builder skips them.
 */
import type { TransferRecord } from '@edgedns/zone-transfer'

/** Whether `a` and `b` are of one RRset: same type and owner (as labels below the zone, or whole). */
function sameSet(a: TransferRecord, b: TransferRecord): boolean {
  if (a.type !== b.type) return false
  if (a.below !== undefined) return a.below === b.below
  return b.below === undefined && a.name === b.name
}

/**
 * Gives every record of each RRset among `records` the set's smallest TTL, in place (a record's
 * TTL is written only in a set whose TTLs differ).
 */
export function giveSetTtls(records: TransferRecord[]): void {
  let start = 0
  while (start < records.length) {
    const first = records[start]!
    let min = first.ttl
    let mixed = false
    let end = start + 1
    for (; end < records.length && sameSet(first, records[end]!); end++) {
      const ttl = records[end]!.ttl
      if (ttl !== min) {
        mixed = true
        if (ttl < min) min = ttl
      }
    }
    if (mixed) for (let i = start; i < end; i++) records[i]!.ttl = min
    start = end
  }
}

/**
 * Takes the records of the last RRset off `records` and returns them: the page after may hold more
 * of that set, so its TTL is not known yet.
 */
export function takeLastSet(records: TransferRecord[]): TransferRecord[] {
  let i = records.length - 1
  if (i < 0) return []
  while (i > 0 && sameSet(records[i - 1]!, records[i]!)) i--
  return records.splice(i)
}
