/**
 * @module The one read of a batch: the zone's guard columns and every record the batch can touch:
 * each deleted record; every record at the name of a patched or overwritten one (which includes
 * it); every record at each name the batch writes to. A delete cannot break a rule at its name, so
 * the records beside a deleted one are not read.
 */
import { normalizeName } from '@edgedns/records'
import type { ZoneGuard } from '../commit/zone-change.ts'
import { fromRow, reverseName, type DnsRecord, type RecordRow } from '../records/model.ts'
import { jsonChunks } from '../db/json-chunks.ts'
import type { BatchRequest } from './request.ts'

export interface Loaded {
  guard: ZoneGuard
  /** The zone is being copied to another D1 shard (an account move): its writes wait for the move. */
  moving: boolean
  records: DnsRecord[]
}

interface ReferencedIds {
  /** Ids the batch patches or overwrites: their records and every record beside them are read. */
  rewritten: string[]
  /** Ids the batch only deletes: just their records are read. */
  deletedOnly: string[]
}

function referencedIds(req: BatchRequest): ReferencedIds {
  const rewritten = new Set<string>()
  for (const list of [req.patches, req.puts]) for (const item of list ?? []) rewritten.add(item.id)
  const deletedOnly = new Set<string>()
  for (const item of req.deletes ?? []) if (!rewritten.has(item.id)) deletedOnly.add(item.id)
  return { rewritten: [...rewritten], deletedOnly: [...deletedOnly] }
}

/** Names the batch writes to; unparsable names are skipped here and rejected by the plan. */
function referencedNames(req: BatchRequest, zoneName: string): string[] {
  const names = new Set<string>()
  for (const list of [req.patches, req.puts, req.posts]) {
    for (const item of list ?? []) {
      if (item.name === undefined) continue
      try {
        names.add(normalizeName(item.name, zoneName))
      } catch {
        // reported with its position by planBatch
      }
    }
  }
  return [...names]
}

/** Records by id (`+zone_id` keeps SQLite on the id key: otherwise it walks the whole zone, json_each has no stats). */
export const SELECT_BY_ID =
  'SELECT * FROM dns_records WHERE id IN (SELECT value FROM json_each(?2)) AND +zone_id = ?1'

export async function loadForBatch(
  db: D1Database,
  zoneId: string,
  zoneName: string,
  req: BatchRequest
): Promise<Loaded | null> {
  const stmts: D1PreparedStatement[] = [
    db
      .prepare(
        "SELECT version, change_seq, serial, status FROM zones WHERE id = ?1 AND status != 'deleted'"
      )
      .bind(zoneId),
  ]
  const ids = referencedIds(req)
  for (const chunk of jsonChunks(ids.deletedOnly)) {
    stmts.push(db.prepare(SELECT_BY_ID).bind(zoneId, chunk))
  }
  for (const chunk of jsonChunks(ids.rewritten)) {
    stmts.push(
      db
        .prepare(
          `SELECT * FROM dns_records WHERE zone_id = ?1 AND name_rev IN
             (SELECT name_rev FROM dns_records WHERE id IN (SELECT value FROM json_each(?2)) AND +zone_id = ?1)`
        )
        .bind(zoneId, chunk)
    )
  }
  for (const chunk of jsonChunks(referencedNames(req, zoneName).map(reverseName))) {
    stmts.push(
      db
        .prepare(
          'SELECT * FROM dns_records WHERE zone_id = ?1 AND name_rev IN (SELECT value FROM json_each(?2))'
        )
        .bind(zoneId, chunk)
    )
  }
  const results = await db.batch(stmts)
  const zone = results[0]!.results[0] as
    { version: number; change_seq: number; serial: number; status: string } | undefined
  if (!zone) return null
  const byId = new Map<string, DnsRecord>()
  for (const r of results.slice(1)) {
    for (const row of r.results as unknown as RecordRow[])
      if (!byId.has(row.id)) byId.set(row.id, fromRow(row))
  }
  return {
    guard: { version: zone.version, changeSeq: zone.change_seq, serial: zone.serial },
    moving: zone.status === 'moving' || zone.status === 'copying',
    records: [...byId.values()],
  }
}
