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
import { and, eq, max } from 'drizzle-orm'
import { openDb } from '../db/client.ts'
import { zoneSerials } from '../db/schema-transfers.ts'
import type { IxfrStep } from '@edgedns/zone-transfer'
import { RECORD_COLUMNS, type RecordRow } from '../records/model.ts'
import type { ZoneRow } from '../zones/model.ts'
import { ZoneChangedDuringTransfer } from './transfer-errors.ts'

/** Beyond this many change-log entries an IXFR is answered in the AXFR form (held in memory). */
const MAX_IXFR_CHANGES = 10_000

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
  const from = await openDb(db)
    .select({ seq: max(zoneSerials.seq) })
    .from(zoneSerials)
    .where(and(eq(zoneSerials.zoneId, zone.id), eq(zoneSerials.serial, clientSerial)))
    .get()
  if (from?.seq == null) return null
  const count = zone.changeSeq - from.seq
  if (count <= 0 || count > MAX_IXFR_CHANGES) return null
  const { results } = await db
    .prepare(
      `SELECT op, record_id, before FROM change_log
        WHERE zone_id = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq`
    )
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
    db
      .prepare(
        'SELECT * FROM dns_records WHERE zone_id = ?1 AND id IN (SELECT value FROM json_each(?2))'
      )
      .bind(zone.id, JSON.stringify(ids)),
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
