/**
 * @module The row of a zone's incoming or outgoing transfer settings, read and written the same
 * way for both: every write is guarded in its statement (the named peers are the account's, the
 * account is not fenced by a move), and a write that changed nothing is explained afterwards
 * (fenced → 503 to retry, no settings → 404, settings already there → 400, an unknown peer → 400).
 */
import { nowIso } from '../http/ids.ts'
import type { ZoneRow } from '../zones/model.ts'
import { notFencedSql, refuseIfFenced } from './account-db.ts'
import {
  assertZoneName,
  assertZoneType,
  peersExistSql,
  settingsExist,
  settingsNotFound,
  unknownPeers,
  type Direction,
} from './zone-settings.ts'

export interface SettingsKind {
  direction: Direction
  table: 'zone_transfers_incoming' | 'zone_transfers_outgoing'
  /** The columns a read answers (SQL expressions over the settings' row, each named). */
  columns: string
  /** Columns besides `name` and `peers` that POST and PUT write (each from the input). */
  written: string[]
  /** Columns only a new row gets, with their constant SQL values. */
  initial?: Record<string, string>
}

/** What POST and PUT carry: the zone's name, the peers, and the kind's `written` columns. */
export interface SettingsInput {
  name: string
  peers: string[]
  [column: string]: unknown
}

export async function readSettings<Row>(
  db: D1Database,
  kind: SettingsKind,
  zone: ZoneRow
): Promise<Row | null> {
  return db
    .prepare(`SELECT ${kind.columns} FROM ${kind.table} WHERE zone_id = ?1`)
    .bind(zone.id)
    .first<Row>()
}

export async function getSettings<Row>(
  db: D1Database,
  kind: SettingsKind,
  zone: ZoneRow
): Promise<Row> {
  const row = await readSettings<Row>(db, kind, zone)
  if (!row) throw settingsNotFound(zone, kind.direction)
  return row
}

/** Parameters ?1 zone, ?2 account, ?3 name, ?4 peers, ?5 now, then the written columns. */
function bindings(zone: ZoneRow, kind: SettingsKind, input: SettingsInput): unknown[] {
  return [
    zone.id,
    zone.accountId,
    input.name,
    JSON.stringify(input.peers),
    nowIso(),
    ...kind.written.map((c) => input[c]),
  ]
}

export async function createSettings<Row>(
  db: D1Database,
  kind: SettingsKind,
  zone: ZoneRow,
  input: SettingsInput
): Promise<Row> {
  assertZoneType(zone, kind.direction)
  assertZoneName(zone, input.name)
  if (await readSettings(db, kind, zone)) throw settingsExist(zone, kind.direction)
  const initial = Object.entries(kind.initial ?? {})
  const columns = [...kind.written, ...initial.map(([c]) => c)]
  const values = [...kind.written.map((_, i) => `?${6 + i}`), ...initial.map(([, v]) => v)]
  const r = await db
    .prepare(
      `INSERT INTO ${kind.table} (zone_id, name, peers, created_on, modified_on${columns.map((c) => `, ${c}`).join('')})
       SELECT ?1, ?3, ?4, ?5, ?5${values.map((v) => `, ${v}`).join('')}
       WHERE ${peersExistSql(4, 2)} AND ${notFencedSql(2)}
       ON CONFLICT (zone_id) DO NOTHING`
    )
    .bind(...bindings(zone, kind, input))
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    if (await readSettings(db, kind, zone)) throw settingsExist(zone, kind.direction)
    throw await unknownPeers(db, zone, input.peers)
  }
  return getSettings<Row>(db, kind, zone)
}

export async function updateSettings<Row>(
  db: D1Database,
  kind: SettingsKind,
  zone: ZoneRow,
  input: SettingsInput
): Promise<Row> {
  assertZoneType(zone, kind.direction)
  assertZoneName(zone, input.name)
  const set = kind.written.map((c, i) => `, ${c} = ?${6 + i}`).join('')
  const r = await db
    .prepare(
      `UPDATE ${kind.table} SET name = ?3, peers = ?4, modified_on = ?5${set}
       WHERE zone_id = ?1 AND ${peersExistSql(4, 2)} AND ${notFencedSql(2)}`
    )
    .bind(...bindings(zone, kind, input))
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    await getSettings(db, kind, zone)
    throw await unknownPeers(db, zone, input.peers)
  }
  return getSettings<Row>(db, kind, zone)
}

export async function deleteSettings(
  db: D1Database,
  kind: SettingsKind,
  zone: ZoneRow
): Promise<void> {
  const r = await db
    .prepare(`DELETE FROM ${kind.table} WHERE zone_id = ?1 AND ${notFencedSql(2)}`)
    .bind(zone.id, zone.accountId)
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, zone.accountId)
    throw settingsNotFound(zone, kind.direction)
  }
}
