/**
 * @module The IXFR difference from a secondary's serial to the zone's current one, read from the
 * change log (RFC 1995, condensed): `zone_serials` maps the serial to the change sequence that
 * produced it; every record the entries after it touched is deleted in its state before the first
 * of them (the entry's `before`) and added in its live state. Null (answer in the AXFR form) when
 * the serial is unknown, the log no longer holds every entry since (the cron prunes it), an entry
 * is about the zone as a whole (settings, name servers, a rebuild), or there are too many. A commit
 * after the zone row was read breaks the transfer off (ZoneChangedDuringTransfer).
 */
import type { ResponseRR } from '@edgedns/dns-wire'
import { SELECT_BY_ID } from '../batch/load.ts'
import type { IxfrStep } from '@edgedns/zone-transfer'
import { RECORD_COLUMNS, type RecordRow } from '../records/model.ts'
import type { ZoneRow } from '../zones/model.ts'
import { ZoneChangedDuringTransfer } from './transfer-errors.ts'

/** Beyond this many change-log entries an IXFR is answered in the AXFR form (held in memory). */
const MAX_IXFR_CHANGES = 10_000

/**
 * The change sequence that produced serial ?2 of zone ?1 (its latest, should a serial repeat).
 * Through the (zone, serial) index: by the primary key SQLite would walk the zone's serials from
 * the newest down to the one asked for, all of them for a serial it does not hold.
 */
export const SERIAL_SEQ_SQL = `SELECT max(seq) AS seq FROM zone_serials INDEXED BY zone_serials_serial
  WHERE zone_id = ?1 AND serial = ?2`

/** The change-log entries of zone ?1 after sequence ?2 up to ?3, in order (by the primary key). */
const CHANGES_SQL = `SELECT op, record_id, before FROM change_log
  WHERE zone_id = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq`

/** The live records of zone ?1 among the ids of JSON array ?2, found by id (the batch path's read). */
export const LIVE_ROWS_SQL = SELECT_BY_ID

interface LogRow {
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
 * The one condensed step from `clientSerial` to the zone's serial, or null (see the module
 * comment). `toRecord` turns a stored row into a transfer record (null: not transferable).
 */
export async function changeSteps(
  db: D1Database,
  zone: ZoneRow,
  clientSerial: number,
  toRecord: (row: RecordRow) => ResponseRR | null
): Promise<IxfrStep[] | null> {
  const from = await db
    .prepare(SERIAL_SEQ_SQL)
    .bind(zone.id, clientSerial)
    .first<{ seq: number | null }>()
  if (from?.seq == null) return null
  const count = zone.changeSeq - from.seq
  if (count <= 0 || count > MAX_IXFR_CHANGES) return null
  const { results } = await db
    .prepare(CHANGES_SQL)
    .bind(zone.id, from.seq, zone.changeSeq)
    .all<LogRow>()
  if (results.length !== count) return null
  const firstBefore = new Map<string, string | null>()
  for (const row of results) {
    if (!['create', 'update', 'delete'].includes(row.op) || !row.record_id) return null
    if (!firstBefore.has(row.record_id)) firstBefore.set(row.record_id, row.before)
  }
  const ids = [...firstBefore.keys()]
  // The live rows and the zone's change sequence in one transaction: rows a later commit changed
  // would not be the version the serial names.
  const [live, seq] = (await db.batch([
    db.prepare(LIVE_ROWS_SQL).bind(zone.id, JSON.stringify(ids)),
    db.prepare('SELECT change_seq FROM zones WHERE id = ?1').bind(zone.id),
  ])) as [D1Result<RecordRow>, D1Result<{ change_seq: number }>]
  if (seq.results[0]?.change_seq !== zone.changeSeq) throw new ZoneChangedDuringTransfer(zone.name)
  const deleted: ResponseRR[] = []
  for (const before of firstBefore.values()) {
    const rr = before === null ? null : toRecord(rowOf(before))
    if (rr) deleted.push(rr)
  }
  const added = live.results.map(toRecord).filter((rr): rr is ResponseRR => rr !== null)
  return [{ from: clientSerial, to: zone.serial, deleted, added }]
}
