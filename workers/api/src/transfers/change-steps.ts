/**
 * @module The IXFR difference from a secondary's serial to the zone's current one, read from the
 * change log (RFC 1995, condensed): `zone_serials` maps the serial to the change sequence that
 * produced it; every record the entries after it touched is deleted in its state before the first
 * of them (the entry's `before`) and added in its live state. Null (answer in the AXFR form) when
 * the serial is unknown, the log no longer holds every entry since (the cron prunes it), an entry
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

/**
 * The live records those entries touched, found by id (`+zone_id` keeps SQLite off the zone's
 * own indexes, which would walk every record of the zone), in the zone's transfer order.
 */
export const CHANGED_ROWS_SQL = `SELECT * FROM dns_records WHERE id IN (SELECT record_id FROM change_log
    WHERE zone_id = ?1 AND seq > ${FROM_SEQ} AND seq <= ?3 AND seq > ?3 - ?4)
  AND +zone_id = ?1 ORDER BY name_rev, type, content, ifnull(priority, -1)`

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
  const deleted = before.map(toRecord).filter((rr): rr is ResponseRR => rr !== null)
  const added = live.results.map(toRecord).filter((rr): rr is ResponseRR => rr !== null)
  const step = { from: clientSerial, to: zone.serial, deleted, added }
  return [fromSoa ? { ...step, fromSoa } : step]
}
