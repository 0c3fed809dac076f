/**
 * @module A secondary zone's incoming transfer configuration (`/zones/{id}/secondary_dns/incoming`):
 * the primaries it transfers from (asked in order) and how often its SOA is checked without a
 * NOTIFY. Answered in Cloudflare's shape with the serial of the last transfer committed.
 */
import { z } from 'zod'
import { nowIso } from '../http/ids.ts'
import type { ZoneRow } from '../zones/model.ts'
import { notFencedSql, refuseIfFenced } from './account-db.ts'
import { domainNameSchema, parseIds, peerIdsSchema, withoutNulls } from './fields.ts'
import {
  assertZoneName,
  assertZoneType,
  peersExistSql,
  settingsExist,
  settingsNotFound,
  unknownPeers,
} from './zone-settings.ts'

/** Bounds of `auto_refresh_seconds`: five minutes to a week. */
const MIN_AUTO_REFRESH = 300
const MAX_AUTO_REFRESH = 7 * 86400

/** The body of POST and PUT. */
export const incomingSchema = z.object({
  name: domainNameSchema,
  peers: peerIdsSchema.min(1, 'a secondary zone needs at least one primary peer'),
  auto_refresh_seconds: z.number().int().min(MIN_AUTO_REFRESH).max(MAX_AUTO_REFRESH),
})
type IncomingInput = z.output<typeof incomingSchema>

interface IncomingRow {
  name: string
  peers: string
  auto_refresh_seconds: number
  soa_serial: number | null
  created_on: string
  modified_on: string
  checked_on: string | null
}

export function incomingToApi(zone: ZoneRow, row: IncomingRow): Record<string, unknown> {
  return withoutNulls({
    id: zone.id,
    name: row.name,
    peers: parseIds(row.peers),
    auto_refresh_seconds: row.auto_refresh_seconds,
    soa_serial: row.soa_serial,
    created_time: row.created_on,
    modified_time: row.modified_on,
    checked_time: row.checked_on,
  })
}

async function readIncoming(db: D1Database, zone: ZoneRow): Promise<IncomingRow | null> {
  return db
    .prepare(
      `SELECT name, peers, auto_refresh_seconds, soa_serial, created_on, modified_on, checked_on
       FROM zone_transfers_incoming WHERE zone_id = ?1`
    )
    .bind(zone.id)
    .first<IncomingRow>()
}

export async function getIncoming(db: D1Database, zone: ZoneRow): Promise<IncomingRow> {
  const row = await readIncoming(db, zone)
  if (!row) throw settingsNotFound(zone, 'incoming')
  return row
}

export async function createIncoming(
  db: D1Database,
  zone: ZoneRow,
  input: IncomingInput
): Promise<IncomingRow> {
  assertZoneType(zone, 'incoming')
  assertZoneName(zone, input.name)
  if (await readIncoming(db, zone)) throw settingsExist(zone, 'incoming')
  const r = await db
    .prepare(
      `INSERT INTO zone_transfers_incoming
         (zone_id, name, peers, auto_refresh_seconds, created_on, modified_on)
       SELECT ?1, ?3, ?4, ?5, ?6, ?6 WHERE ${peersExistSql(4, 2)} AND ${notFencedSql(2)}
       ON CONFLICT (zone_id) DO NOTHING`
    )
    .bind(
      zone.id,
      zone.accountId,
      input.name,
      JSON.stringify(input.peers),
      input.auto_refresh_seconds,
      nowIso()
    )
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    if (await readIncoming(db, zone)) throw settingsExist(zone, 'incoming')
    throw await unknownPeers(db, zone, input.peers)
  }
  return getIncoming(db, zone)
}

export async function updateIncoming(
  db: D1Database,
  zone: ZoneRow,
  input: IncomingInput
): Promise<IncomingRow> {
  assertZoneType(zone, 'incoming')
  assertZoneName(zone, input.name)
  const r = await db
    .prepare(
      `UPDATE zone_transfers_incoming SET name = ?3, peers = ?4, auto_refresh_seconds = ?5,
         modified_on = ?6
       WHERE zone_id = ?1 AND ${peersExistSql(4, 2)} AND ${notFencedSql(2)}`
    )
    .bind(
      zone.id,
      zone.accountId,
      input.name,
      JSON.stringify(input.peers),
      input.auto_refresh_seconds,
      nowIso()
    )
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    await getIncoming(db, zone)
    throw await unknownPeers(db, zone, input.peers)
  }
  return getIncoming(db, zone)
}

export async function deleteIncoming(db: D1Database, zone: ZoneRow): Promise<void> {
  const r = await db
    .prepare(`DELETE FROM zone_transfers_incoming WHERE zone_id = ?1 AND ${notFencedSql(2)}`)
    .bind(zone.id, zone.accountId)
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    throw settingsNotFound(zone, 'incoming')
  }
}
