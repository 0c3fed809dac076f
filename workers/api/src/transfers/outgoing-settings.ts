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
  createSettings,
  deleteSettings,
  getSettings,
  readSettings,
  updateSettings,
  type SettingsKind,
} from './settings-rows.ts'
import { settingsNotFound } from './zone-settings.ts'

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

const OUTGOING: SettingsKind = {
  direction: 'outgoing',
  table: 'zone_transfers_outgoing',
  columns: 'name, peers, enabled, created_on, modified_on, checked_on, last_transferred_on',
  written: [],
  // A new configuration starts disabled: `/enable` turns it on.
  initial: { enabled: '0' },
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

export const getOutgoing = (db: D1Database, zone: ZoneRow): Promise<OutgoingRow> =>
  getSettings<OutgoingRow>(db, OUTGOING, zone)

/** Whether outgoing transfers of the zone are enabled (no configuration: they are not). */
export async function outgoingEnabled(db: D1Database, zone: ZoneRow): Promise<boolean> {
  return (await readSettings<OutgoingRow>(db, OUTGOING, zone))?.enabled === 1
}

export const createOutgoing = (
  db: D1Database,
  zone: ZoneRow,
  input: OutgoingInput
): Promise<OutgoingRow> => createSettings<OutgoingRow>(db, OUTGOING, zone, input)

export const updateOutgoing = (
  db: D1Database,
  zone: ZoneRow,
  input: OutgoingInput
): Promise<OutgoingRow> => updateSettings<OutgoingRow>(db, OUTGOING, zone, input)

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

export const deleteOutgoing = (db: D1Database, zone: ZoneRow): Promise<void> =>
  deleteSettings(db, OUTGOING, zone)
