/**
 * @module An account's catalog zone settings (`/accounts/{id}/secondary_dns/catalog`, not a
 * Cloudflare route): `{ name, peers, enabled }`. `PUT` makes or replaces the catalog, `DELETE`
 * removes it; the row stays behind with `deleted_on` so that the catalog's serial never goes back
 * when it is made again. The name may not be a zone served here nor another account's catalog.
 */
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import { newId, nowIso } from '../http/ids.ts'
import { allShards, type ShardEnv } from '../shards/databases.ts'
import { liveZoneIdNamed } from '../shards/zone-env.ts'
import { notFencedSql, refuseIfFenced, type AccountDb } from './account-db.ts'
import { domainNameSchema, parseIds, peerIdsSchema, withoutNulls } from './fields.ts'

/** The body of PUT. */
export const catalogSchema = z.object({
  name: domainNameSchema,
  peers: peerIdsSchema,
  enabled: z.boolean().optional(),
})
type CatalogInput = z.output<typeof catalogSchema>

export interface CatalogRow {
  id: string
  account_id: string
  name: string
  peers: string
  enabled: number
  serial: number
  created_on: string
  modified_on: string
}

const COLUMNS = 'id, account_id, name, peers, enabled, serial, created_on, modified_on'

/** SQL: the next serial after `current`, never behind the clock (epoch seconds). */
const nextSerialSql = (current: string): string =>
  `max(${current} + 1, CAST(strftime('%s', 'now') AS INTEGER))`

export function catalogToApi(row: CatalogRow): Record<string, unknown> {
  return withoutNulls({
    id: row.id,
    name: row.name,
    peers: parseIds(row.peers),
    enabled: row.enabled === 1,
    soa_serial: row.serial,
    created_time: row.created_on,
    modified_time: row.modified_on,
  })
}

function notFound(): ApiError {
  return new ApiError(404, Codes.catalogNotFound, 'This account has no catalog zone')
}

/** The account's catalog, or null. */
export async function readCatalog(db: D1Database, accountId: string): Promise<CatalogRow | null> {
  return db
    .prepare(
      `SELECT ${COLUMNS} FROM transfer_catalogs WHERE account_id = ?1 AND deleted_on IS NULL`
    )
    .bind(accountId)
    .first<CatalogRow>()
}

export async function getCatalog({ db, accountId }: AccountDb): Promise<CatalogRow> {
  const row = await readCatalog(db, accountId)
  if (!row) throw notFound()
  return row
}

/** Why `name` cannot be the account's catalog, or null when it can. */
async function nameConflict(
  env: ShardEnv,
  accountId: string,
  name: string
): Promise<string | null> {
  if (await liveZoneIdNamed(env, name)) return `${name} is a zone served here`
  for (const { db } of allShards(env)) {
    const other = await db
      .prepare(
        'SELECT 1 AS x FROM transfer_catalogs WHERE name = ?1 AND account_id != ?2 AND deleted_on IS NULL'
      )
      .bind(name, accountId)
      .first()
    if (other) return `${name} is the catalog of another account`
  }
  return null
}

/** Makes or replaces the catalog; its serial moves. The peers are checked in the same statement. */
export async function putCatalog(
  env: ShardEnv,
  { db, accountId }: AccountDb,
  input: CatalogInput
): Promise<CatalogRow> {
  const conflict = await nameConflict(env, accountId, input.name)
  if (conflict) {
    throw ApiError.badRequest(
      Codes.catalogNameTaken,
      `name: ${conflict}; a catalog needs a name of its own`
    )
  }
  const peers = JSON.stringify(input.peers)
  const r = await db
    .prepare(
      `INSERT INTO transfer_catalogs (id, account_id, name, peers, enabled, serial, created_on, modified_on)
       SELECT ?1, ?2, ?3, ?4, ?5, ${nextSerialSql('0')}, ?6, ?6
       WHERE NOT EXISTS (SELECT 1 FROM json_each(?4)
           WHERE value NOT IN (SELECT id FROM transfer_peers WHERE account_id = ?2))
         AND ${notFencedSql(2)}
       ON CONFLICT (account_id) DO UPDATE SET name = excluded.name, peers = excluded.peers,
         enabled = excluded.enabled, serial = ${nextSerialSql('transfer_catalogs.serial')},
         created_on = CASE WHEN deleted_on IS NULL THEN created_on ELSE excluded.created_on END,
         modified_on = excluded.modified_on, deleted_on = NULL`
    )
    .bind(newId(), accountId, input.name, peers, input.enabled === false ? 0 : 1, nowIso())
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, accountId)
    const { results } = await db
      .prepare(
        `SELECT value AS id FROM json_each(?1)
         WHERE value NOT IN (SELECT id FROM transfer_peers WHERE account_id = ?2)`
      )
      .bind(peers, accountId)
      .all<{ id: string }>()
    throw ApiError.badRequest(
      Codes.transferReference,
      `peers: ${results.map((p) => p.id).join(', ')} ${results.length === 1 ? 'is' : 'are'} not a peer of this account`
    )
  }
  return (await readCatalog(db, accountId))!
}

/** Removes the catalog (its serial is kept for the next one). */
export async function deleteCatalog({ db, accountId }: AccountDb): Promise<void> {
  const r = await db
    .prepare(
      `UPDATE transfer_catalogs SET deleted_on = ?2, modified_on = ?2,
         serial = ${nextSerialSql('serial')}
       WHERE account_id = ?1 AND deleted_on IS NULL AND ${notFencedSql(1)}`
    )
    .bind(accountId, nowIso())
    .run()
  if (r.meta.changes > 0) return
  await refuseIfFenced(db, accountId)
  throw notFound()
}
