/**
 * @module The account's catalog zone as served (RFC 9432 version 2), generated from D1 at each
 * transfer: found by name on the shard its account lives on, its members read in keyset pages
 * (the account's active zones whose outgoing transfers are enabled, each under its zone id), and
 * its transfer configuration (the catalog's peers with their TSIG keys, the account's ACLs).
 */
import { catalogRecords, catalogSoa, type CatalogMember } from '@edgedns/zone-transfer'
import type { ResponseRR } from '@edgedns/dns-wire'
import { allShards, homeDb, shardCount, type ShardEnv } from '../shards/databases.ts'
import { accountRoute } from '../shards/directory.ts'
import type { CatalogRow } from './catalog-settings.ts'
import { transferConfig, type OutgoingConfig } from './transfer-config.ts'
import { ZoneChangedDuringTransfer } from './transfer-errors.ts'

/** Member zones read from D1 per page. */
const CATALOG_PAGE = 5_000

/**
 * The members after (name, id), in name order: the zones of the account, live (active, or moving
 * between shards), whose outgoing transfers are enabled. Only primary zones can have them.
 */
const MEMBERS_SQL = `SELECT z.id, z.name FROM zones AS z
  JOIN zone_transfers_outgoing AS o ON o.zone_id = z.id
  WHERE z.account_id = ?1 AND z.status IN ('active', 'moving') AND o.enabled = 1
    AND (z.name, z.id) > (?2, ?3)
  ORDER BY z.name, z.id LIMIT ?4`

export interface ServedCatalog {
  row: CatalogRow
  db: D1Database
}

/** The catalog of that name (lower case, no final dot) on its account's shard, or null. */
export async function catalogNamed(env: ShardEnv, name: string): Promise<ServedCatalog | null> {
  const shards = allShards(env)
  for (const { index, db } of shards) {
    const row = await db
      .prepare(
        `SELECT id, account_id, name, peers, enabled, serial, created_on, modified_on
         FROM transfer_catalogs WHERE name = ?1 AND deleted_on IS NULL`
      )
      .bind(name)
      .first<CatalogRow>()
    if (!row) continue
    // During an account move both shards may hold the row: the directory says which is current.
    if (shardCount(env) > 1 && (await accountRoute(homeDb(env), row.account_id))?.shard !== index)
      continue
    return { row, db }
  }
  return null
}

/** The account's catalog members, read page by page. */
export async function* catalogMembers(
  db: D1Database,
  accountId: string,
  pageSize = CATALOG_PAGE
): AsyncGenerator<CatalogMember> {
  let after: [string, string] = ['', '']
  for (;;) {
    const { results } = await db
      .prepare(MEMBERS_SQL)
      .bind(accountId, ...after, pageSize)
      .all<{ id: string; name: string }>()
    yield* results
    const last = results[results.length - 1]
    if (!last || results.length < pageSize) return
    after = [last.name, last.id]
  }
}

export function servedCatalogSoa(row: CatalogRow): ResponseRR {
  return catalogSoa(row.name, row.serial)
}

/**
 * The catalog's records after its SOA (NS, version, one PTR per member). The members are read
 * after the catalog's row, so its serial is read again after the last of them: when a membership
 * change moved it meanwhile, the transfer is broken off before its closing SOA (a copy of the new
 * members under the old serial is never completed; the change's NOTIFY is on its way).
 */
export async function* servedCatalogRecords(
  { row, db }: ServedCatalog,
  pageSize?: number
): AsyncGenerator<ResponseRR> {
  yield* catalogRecords(row.name, catalogMembers(db, row.account_id, pageSize))
  const now = await db
    .prepare('SELECT serial FROM transfer_catalogs WHERE id = ?1')
    .bind(row.id)
    .first<{ serial: number }>()
  if (now?.serial !== row.serial) throw new ZoneChangedDuringTransfer(row.name)
}

/** Who may transfer the catalog and with which keys: its peers, and the account's ACLs. */
export function catalogTransferConfig({ row, db }: ServedCatalog): Promise<OutgoingConfig> {
  return transferConfig(db, row.account_id, row.id, row)
}
