/**
 * @module The account's catalog zone as served (RFC 9432 version 2), generated from D1 at each
 * transfer: found by name on the shard its account lives on, its transfer configuration (the
 * catalog's peers with their TSIG keys, the account's ACLs), and its content: the members read
 * with the catalog's serial in one D1 batch (`catalog-members.ts`), so a transfer is of one
 * version of the catalog however often its membership changes.
 */
import {
  catalogRecords,
  catalogSoa,
  type CatalogMember,
  type TransferZone,
} from '@edgedns/zone-transfer'
import type { ResponseRR } from '@edgedns/dns-wire'
import { allShards, homeDb, shardCount, type ShardEnv } from '../shards/databases.ts'
import { accountRoute } from '../shards/directory.ts'
import {
  CATALOG_SIZES,
  membersOf,
  readMemberBatch,
  type CatalogSizes,
  type MemberBatch,
} from './catalog-members.ts'
import type { CatalogRow } from './catalog-settings.ts'
import { transferConfig, type OutgoingConfig } from './transfer-config.ts'
import { ZoneChangedDuringTransfer } from './transfer-errors.ts'

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

export function servedCatalogSoa(row: CatalogRow): ResponseRR {
  return catalogSoa(row.name, row.serial)
}

/**
 * The members were read at another serial than the one the transfer's SOA was made with (a
 * membership change came in between the catalog's row and its members): the answer is made again
 * from them, at their serial, before anything is sent (`again` of `catalogTransfer`).
 */
class CatalogMoved extends Error {
  constructor(readonly batch: MemberBatch & { serial: number }) {
    super('the catalog moved between its row and its members')
  }
}

/**
 * The members at `serial`, the first batch given, the next ones (a catalog larger than a batch)
 * read after the last member; a batch of another serial breaks the transfer off (before its
 * closing SOA: a copy of other members under this serial is never completed), the first one by
 * `CatalogMoved` when the catalog is still served.
 */
async function* membersAt(
  { row, db }: ServedCatalog,
  serial: number,
  first: () => MemberBatch | Promise<MemberBatch>,
  sizes: CatalogSizes
): AsyncGenerator<CatalogMember> {
  let batch = await first()
  if (batch.serial !== serial && batch.serial !== null)
    throw new CatalogMoved({ ...batch, serial: batch.serial })
  for (;;) {
    if (batch.serial !== serial) throw new ZoneChangedDuringTransfer(row.name)
    let last: CatalogMember | undefined
    for (const member of membersOf(batch)) {
      yield member
      last = member
    }
    if (!last || batch.count < sizes.batch) return
    batch = await readMemberBatch(db, row, [last.name, last.id], sizes)
  }
}

/** The catalog at `serial` as a transfer answers it, its first batch of members given. */
function catalogAt(
  served: ServedCatalog,
  serial: number,
  first: () => MemberBatch | Promise<MemberBatch>,
  sizes: CatalogSizes
): TransferZone {
  return {
    soa: catalogSoa(served.row.name, serial),
    records: () => catalogRecords(served.row.name, membersAt(served, serial, first, sizes)),
  }
}

/**
 * The catalog as a transfer answers it: its SOA at the serial of its row, its records (NS, version,
 * one PTR per member) read once the transfer asks for them. `again` answers a transfer whose
 * members came at a newer serial (`CatalogMoved`) with the catalog at that serial, from the
 * members already read: a transfer is made of one batch's members under that batch's serial.
 */
export function catalogTransfer(
  served: ServedCatalog,
  sizes: CatalogSizes = CATALOG_SIZES
): { zone: TransferZone; again: (err: unknown) => TransferZone | null } {
  const read = () => readMemberBatch(served.db, served.row, ['', ''], sizes)
  return {
    zone: catalogAt(served, served.row.serial, read, sizes),
    again: (err) =>
      err instanceof CatalogMoved
        ? catalogAt(served, err.batch.serial, () => err.batch, sizes)
        : null,
  }
}

/** Who may transfer the catalog and with which keys: its peers, and the account's ACLs. */
export function catalogTransferConfig({ row, db }: ServedCatalog): Promise<OutgoingConfig> {
  return transferConfig(db, row.account_id, row.id, row)
}
