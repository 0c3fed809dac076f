/**
 * @module The IXFR difference from a secondary's serial to the zone's current one, read from the
 * change log (RFC 1995, condensed): `zone_serials` maps the serial to the change sequence that
 * produced it; every record the entries after it touched is deleted in its state before the first
 * of them (the entry's `before`) and added in its live state, each with its RRset's TTL at that
 * version (the set's smallest, as the edge serves it); a set whose TTL the entries moved is deleted
 * and added whole, so the secondary holds all of it at the new TTL. Null (answer in the AXFR form)
 * when the serial is unknown, the log no longer holds every entry since (the cron prunes it), an entry
 * is about the zone as a whole (settings, name servers, a rebuild), there are too many, or a
 * record touched is an apex NS record: the apex NS set switches between the zone's default name
 * servers and its stored records (zones/apex-ns.ts), so only the AXFR form gives it whole.
 * A secondary zone's IXFR in ends its entries with a `soa` one holding the SOA it replaced (the
 * primary may have moved more than the serial): the difference starts from the first such SOA,
 * the one the client holds.
 * A commit after the zone row was read breaks the transfer off (ZoneChangedDuringTransfer).
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import type { ResponseRR } from '@edgedns/dns-wire'
import { soaSerial, type IxfrStep } from '@edgedns/zone-transfer'
import { RECORD_COLUMNS, type RecordRow } from '../records/model.ts'
import { soaRdata, type ZoneRow } from '../zones/model.ts'
import { ZoneChangedDuringTransfer } from './transfer-errors.ts'

/** Beyond this many change-log entries an IXFR is answered in the AXFR form (held in memory). */
const MAX_IXFR_CHANGES = 10_000

/**
 * The change sequence that produced serial ?2 of zone ?1 (its latest, should a serial repeat), as
 * an SQL expression. Through the (zone, serial) index: by the primary key SQLite would walk the
 * zone's serials from the newest down to the one asked for, all of them for a serial it does not hold.
 */
const FROM_SEQ = `(SELECT max(seq) FROM zone_serials INDEXED BY zone_serials_serial
  WHERE zone_id = ?1 AND serial = ?2)`

/**
 * The change-log entries of zone ?1 after the one that produced serial ?2, up to sequence ?3 and
 * at most the last ?4 of them, in order, each with that entry's sequence (`from_seq`).
 */
export const CHANGES_SQL = `SELECT ${FROM_SEQ} AS from_seq, op, record_id, before FROM change_log
  WHERE zone_id = ?1 AND seq > from_seq AND seq <= ?3 AND seq > ?3 - ?4 ORDER BY seq`

/** The change-log entries of zone ?1 after serial ?2, up to sequence ?3, at most ?4 (a FROM clause). */
const ENTRIES = `FROM change_log WHERE zone_id = ?1 AND seq > ${FROM_SEQ} AND seq <= ?3 AND seq > ?3 - ?4`

/** A column of a change-log `before` (dns_records values in column order), as an SQL expression. */
const beforeColumn = (column: (typeof RECORD_COLUMNS)[number]): string =>
  `json_extract(before, '$[${RECORD_COLUMNS.indexOf(column)}]')`

/**
 * Every live record of the RRsets those entries touched (a touched record's set as it is now, and
 * as it was before the entry), in the zone's transfer order: a set's TTL is its smallest record's,
 * so a change to one record may move the TTL of all. The touched records are found by id (`+zone_id`
 * keeps SQLite off the zone's own indexes, which would walk every record of the zone) and by their
 * `before`; their sets then through the identity index (zone, name_rev, type), the touched sets
 * first (CROSS JOIN fixes that order: SQLite would otherwise walk the zone's records).
 */
export const CHANGED_ROWS_SQL = `WITH sets(name_rev, type) AS (
    SELECT name_rev, type FROM dns_records WHERE id IN (SELECT record_id ${ENTRIES}) AND +zone_id = ?1
    UNION SELECT ${beforeColumn('name_rev')}, ${beforeColumn('type')} ${ENTRIES}
      AND op IN ('update', 'delete') AND before IS NOT NULL)
  SELECT r.* FROM sets CROSS JOIN dns_records AS r
    ON r.zone_id = ?1 AND r.name_rev = sets.name_rev AND r.type = sets.type
  ORDER BY r.name_rev, r.type, r.content, ifnull(r.priority, -1)`

interface LogRow {
  from_seq: number
  op: string
  record_id: string | null
  before: string | null
}

/** A change-log `before` (dns_records values in column order) as a row. */
function rowOf(before: string): RecordRow {
  const values = JSON.parse(before) as unknown[]
  return Object.fromEntries(RECORD_COLUMNS.map((c, i) => [c, values[i] ?? null])) as RecordRow
}

/**
 * The zone's SOA as a `soa` entry's `before` holds it ([mname, rname, serial, refresh, retry,
 * expire, minimum, TTL], see LOG_SOA), or null when that is not its shape.
 */
function soaOf(zone: ZoneRow, before: string | null): ResponseRR | null {
  const v = before === null ? null : (JSON.parse(before) as unknown)
  if (!Array.isArray(v) || v.length !== 8) return null
  const [mname, rname, ...numbers] = v as [unknown, unknown, ...unknown[]]
  if (typeof mname !== 'string' || typeof rname !== 'string') return null
  if (!numbers.every((n) => Number.isInteger(n))) return null
  const [serial, refresh, retry, expire, minimum, ttl] = numbers as number[]
  const at = {
    soaMname: mname,
    soaRname: rname,
    serial: serial!,
    soaRefresh: refresh!,
    soaRetry: retry!,
  }
  const rdata = soaRdata({ ...zone, ...at, soaExpire: expire!, soaMinimum: minimum! })
  return { name: zone.name, type: TYPE_CODES.SOA, ttl: ttl!, rdata }
}

/**
 * The one condensed step from `clientSerial` to the zone's serial, or null (see the module
 * comment). `toRecord` turns a stored row into a transfer record (null: not transferable).
 */
export async function changeSteps(
  db: D1Database,
  zone: ZoneRow,
  clientSerial: number,
  toRecord: (row: RecordRow) => ResponseRR | null
): Promise<IxfrStep[] | null> {
  // The entries, the records they touched and the zone's change sequence in one batch (one round
  // trip, one transaction): rows a later commit changed would not be the version the serial names.
  const [log, live, seq] = (await db.batch([
    db.prepare(CHANGES_SQL).bind(zone.id, clientSerial, zone.changeSeq, MAX_IXFR_CHANGES),
    db.prepare(CHANGED_ROWS_SQL).bind(zone.id, clientSerial, zone.changeSeq, MAX_IXFR_CHANGES),
    db.prepare('SELECT change_seq FROM zones WHERE id = ?1').bind(zone.id),
  ])) as [D1Result<LogRow>, D1Result<RecordRow>, D1Result<{ change_seq: number }>]
  // No entry: the serial is unknown, or current. Fewer than since the serial: the log no longer
  // reaches it, or there are more than the limit.
  const entries = log.results
  if (entries.length === 0 || entries.length !== zone.changeSeq - entries[0]!.from_seq) return null
  const firstBefore = new Map<string, string | null>()
  let fromSoa: ResponseRR | null | undefined
  for (const row of entries) {
    if (row.op === 'soa') {
      fromSoa ??= soaOf(zone, row.before)
      if (fromSoa === null) return null
      continue
    }
    if (!['create', 'update', 'delete'].includes(row.op) || !row.record_id) return null
    if (!firstBefore.has(row.record_id)) firstBefore.set(row.record_id, row.before)
  }
  // The SOA the client holds has the serial it asked from.
  if (fromSoa && soaSerial(fromSoa.rdata) !== clientSerial) return null
  if (seq.results[0]?.change_seq !== zone.changeSeq) throw new ZoneChangedDuringTransfer(zone.name)
  const apexNs = (row: RecordRow) => row.type === 'NS' && row.name === zone.name
  const before = [...firstBefore.values()].flatMap((b) => (b === null ? [] : [rowOf(b)]))
  if (before.some(apexNs) || live.results.some(apexNs)) return null
  const { deleted, added } = setDifference(
    before,
    live.results,
    new Set(firstBefore.keys()),
    toRecord
  )
  const step = { from: clientSerial, to: zone.serial, deleted, added }
  return [fromSoa ? { ...step, fromSoa } : step]
}

/** A record's RRset. */
const setOf = (row: RecordRow): string => `${row.type} ${row.name}`

/** The smallest TTL of `records` (the set's as served), or 0 for none. */
const setTtl = (records: ResponseRR[]): number =>
  records.reduce((min, rr) => (min === 0 || rr.ttl < min ? rr.ttl : min), 0)

/**
 * The difference between the touched RRsets before (`before`: the touched records' first
 * before-images; with the untouched live records of their sets) and now (`live`: every record of
 * the touched sets, `touched` naming the touched ones by id), each record with its set's TTL at
 * that version (the smallest of the set's, as the edge serves it). When a set's TTL moved, the
 * whole set is deleted at its old TTL and added at its new one, so a secondary holds every record of
 * it at the new TTL (an IXFR deletion matches on rdata, RFC 1995); otherwise only the touched
 * records are (an unchanged pair cancels in the condensed answer).
 */
function setDifference(
  before: RecordRow[],
  live: RecordRow[],
  touched: Set<string>,
  toRecord: (row: RecordRow) => ResponseRR | null
): { deleted: ResponseRR[]; added: ResponseRR[] } {
  const sets = new Map<string, { old: ResponseRR[]; now: ResponseRR[] }>()
  const setAt = (row: RecordRow) => {
    let set = sets.get(setOf(row))
    if (!set) sets.set(setOf(row), (set = { old: [], now: [] }))
    return set
  }
  const oldRecords = before.map((row) => {
    const rr = toRecord(row)
    if (rr) setAt(row).old.push(rr)
    return rr
  })
  const liveRecords = live.map((row) => {
    const rr = toRecord(row)
    if (rr) {
      setAt(row).now.push(rr)
      if (!touched.has(row.id)) setAt(row).old.push(rr)
    }
    return rr
  })
  const ttls = new Map(
    [...sets].map(([key, set]) => [key, { old: setTtl(set.old), now: setTtl(set.now) }])
  )
  const deleted: ResponseRR[] = []
  const added: ResponseRR[] = []
  before.forEach((row, i) => {
    const rr = oldRecords[i]
    if (rr) deleted.push({ ...rr, ttl: ttls.get(setOf(row))!.old })
  })
  live.forEach((row, i) => {
    const rr = liveRecords[i]
    if (!rr) return
    const ttl = ttls.get(setOf(row))!
    if (!touched.has(row.id) && ttl.old === ttl.now) return
    if (!touched.has(row.id)) deleted.push({ ...rr, ttl: ttl.old })
    added.push({ ...rr, ttl: ttl.now })
  })
  return { deleted, added }
}
