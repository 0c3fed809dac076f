/**
 * @module A primary zone's outgoing transfer configuration (`/zones/{id}/secondary_dns/outgoing`):
 * the peers that get NOTIFY and may transfer, and whether outgoing transfers are enabled (created
 * disabled; `/enable`, `/disable`). Answered in Cloudflare's shape with the zone's current SOA
 * serial.
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

/** The body of POST and PUT. */
export const outgoingSchema = z.object({ name: domainNameSchema, peers: peerIdsSchema })
type OutgoingInput = z.output<typeof outgoingSchema>

interface OutgoingRow {
  name: string
  peers: string
  enabled: number
  created_on: string
  modified_on: string
  checked_on: string | null
  last_transferred_on: string | null
}

export function outgoingToApi(zone: ZoneRow, row: OutgoingRow): Record<string, unknown> {
  return withoutNulls({
    id: zone.id,
    name: row.name,
    peers: parseIds(row.peers),
    soa_serial: zone.serial,
    created_time: row.created_on,
    modified_time: row.modified_on,
    checked_time: row.checked_on,
    last_transferred_time: row.last_transferred_on,
  })
}

async function readOutgoing(db: D1Database, zone: ZoneRow): Promise<OutgoingRow | null> {
  return db
    .prepare(
      `SELECT name, peers, enabled, created_on, modified_on, checked_on, last_transferred_on
       FROM zone_transfers_outgoing WHERE zone_id = ?1`
    )
    .bind(zone.id)
    .first<OutgoingRow>()
}

export async function getOutgoing(db: D1Database, zone: ZoneRow): Promise<OutgoingRow> {
  const row = await readOutgoing(db, zone)
  if (!row) throw settingsNotFound(zone, 'outgoing')
  return row
}

/** Whether outgoing transfers of the zone are enabled (no configuration: they are not). */
export async function outgoingEnabled(db: D1Database, zone: ZoneRow): Promise<boolean> {
  return (await readOutgoing(db, zone))?.enabled === 1
}

export async function createOutgoing(
  db: D1Database,
  zone: ZoneRow,
  input: OutgoingInput
): Promise<OutgoingRow> {
  assertZoneType(zone, 'outgoing')
  assertZoneName(zone, input.name)
  if (await readOutgoing(db, zone)) throw settingsExist(zone, 'outgoing')
  const r = await db
    .prepare(
      `INSERT INTO zone_transfers_outgoing (zone_id, name, peers, enabled, created_on, modified_on)
       SELECT ?1, ?3, ?4, 0, ?5, ?5 WHERE ${peersExistSql(4, 2)} AND ${notFencedSql(2)}
       ON CONFLICT (zone_id) DO NOTHING`
    )
    .bind(zone.id, zone.accountId, input.name, JSON.stringify(input.peers), nowIso())
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    if (await readOutgoing(db, zone)) throw settingsExist(zone, 'outgoing')
    throw await unknownPeers(db, zone, input.peers)
  }
  return getOutgoing(db, zone)
}

export async function updateOutgoing(
  db: D1Database,
  zone: ZoneRow,
  input: OutgoingInput
): Promise<OutgoingRow> {
  assertZoneType(zone, 'outgoing')
  assertZoneName(zone, input.name)
  const r = await db
    .prepare(
      `UPDATE zone_transfers_outgoing SET name = ?3, peers = ?4, modified_on = ?5
       WHERE zone_id = ?1 AND ${peersExistSql(4, 2)} AND ${notFencedSql(2)}`
    )
    .bind(zone.id, zone.accountId, input.name, JSON.stringify(input.peers), nowIso())
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    await getOutgoing(db, zone)
    throw await unknownPeers(db, zone, input.peers)
  }
  return getOutgoing(db, zone)
}

export async function setOutgoingEnabled(
  db: D1Database,
  zone: ZoneRow,
  enabled: boolean
): Promise<void> {
  const r = await db
    .prepare(
      `UPDATE zone_transfers_outgoing SET enabled = ?2, modified_on = ?3
       WHERE zone_id = ?1 AND ${notFencedSql(4)}`
    )
    .bind(zone.id, enabled ? 1 : 0, nowIso(), zone.accountId)
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    throw settingsNotFound(zone, 'outgoing')
  }
}

export async function deleteOutgoing(db: D1Database, zone: ZoneRow): Promise<void> {
  const r = await db
    .prepare(`DELETE FROM zone_transfers_outgoing WHERE zone_id = ?1 AND ${notFencedSql(2)}`)
    .bind(zone.id, zone.accountId)
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    throw settingsNotFound(zone, 'outgoing')
  }
}
