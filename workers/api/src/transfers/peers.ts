/**
 * @module An account's peers (`/accounts/{id}/secondary_dns/peers`): the name servers its zones
 * are transferred to (outgoing) or from (incoming). Cloudflare's shape
 * `{ id, name, ip, port, ixfr_enable, tsig_id }`; a peer is created with a name alone and given
 * its address by PUT. `tsig_id` must name a TSIG key of the account; a peer a zone's incoming or
 * outgoing configuration names cannot be deleted.
 */
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import { newId, nowIso } from '../http/ids.ts'
import { notFencedSql, refuseIfFenced, type AccountDb } from './account-db.ts'
import { idSchema, ipSchema, withoutNulls } from './fields.ts'

/** The port a peer with an address and no port is asked on. */
const DEFAULT_PEER_PORT = 53

/** The body of POST and PUT: PUT replaces the peer (fields left out are cleared). */
export const peerSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(255),
    ip: ipSchema.nullish(),
    port: z.number().int().min(1).max(65535).nullish(),
    ixfr_enable: z.boolean().nullish(),
    tsig_id: idSchema.or(z.literal('')).nullish(),
  })
  .refine((p) => p.port == null || p.ip != null, {
    message: 'a port needs an ip',
    path: ['port'],
  })
type PeerInput = z.output<typeof peerSchema>

interface PeerRow {
  id: string
  name: string
  ip: string | null
  port: number | null
  ixfr_enable: number
  tsig_id: string | null
}

const COLUMNS = 'id, name, ip, port, ixfr_enable, tsig_id'

export function peerToApi(row: PeerRow): Record<string, unknown> {
  return withoutNulls({ ...row, ixfr_enable: row.ixfr_enable === 1 })
}

function notFound(id: string): ApiError {
  return new ApiError(404, Codes.peerNotFound, `Peer ${id} not found in this account`)
}

/** The row a body describes. */
function rowOf(id: string, input: PeerInput): PeerRow {
  const ip = input.ip ?? null
  return {
    id,
    name: input.name,
    ip,
    port: ip === null ? null : (input.port ?? DEFAULT_PEER_PORT),
    ixfr_enable: input.ixfr_enable ? 1 : 0,
    tsig_id: input.tsig_id || null,
  }
}

function unknownTsig(tsigId: string): ApiError {
  return ApiError.badRequest(
    Codes.transferReference,
    `tsig_id: ${tsigId} is not a TSIG key of this account`
  )
}

/** SQL true when ?7 (the TSIG id) is null or a key of the account ?2. */
const TSIG_EXISTS =
  '(?7 IS NULL OR EXISTS (SELECT 1 FROM transfer_tsigs WHERE id = ?7 AND account_id = ?2))'

export async function listPeers({ db, accountId }: AccountDb): Promise<PeerRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM transfer_peers WHERE account_id = ?1 ORDER BY name, id`)
    .bind(accountId)
    .all<PeerRow>()
  return results
}

export async function getPeer({ db, accountId }: AccountDb, id: string): Promise<PeerRow> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM transfer_peers WHERE id = ?1 AND account_id = ?2`)
    .bind(id, accountId)
    .first<PeerRow>()
  if (!row) throw notFound(id)
  return row
}

/** Creates the peer; the TSIG key is checked in the same statement that writes the row. */
export async function createPeer({ db, accountId }: AccountDb, input: PeerInput): Promise<PeerRow> {
  const row = rowOf(newId(), input)
  const r = await db
    .prepare(
      `INSERT INTO transfer_peers (id, account_id, name, ip, port, ixfr_enable, tsig_id, created_on, modified_on)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8 WHERE ${TSIG_EXISTS} AND ${notFencedSql(2)}`
    )
    .bind(row.id, accountId, row.name, row.ip, row.port, row.ixfr_enable, row.tsig_id, nowIso())
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(db, accountId)
    throw unknownTsig(row.tsig_id!)
  }
  return row
}

export async function updatePeer(
  account: AccountDb,
  id: string,
  input: PeerInput
): Promise<PeerRow> {
  const row = rowOf(id, input)
  const r = await account.db
    .prepare(
      `UPDATE transfer_peers SET name = ?3, ip = ?4, port = ?5, ixfr_enable = ?6, tsig_id = ?7,
         modified_on = ?8
       WHERE id = ?1 AND account_id = ?2 AND ${TSIG_EXISTS} AND ${notFencedSql(2)}`
    )
    .bind(id, account.accountId, row.name, row.ip, row.port, row.ixfr_enable, row.tsig_id, nowIso())
    .run()
  if (r.meta.changes === 0) {
    await refuseIfFenced(account.db, account.accountId)
    await getPeer(account, id)
    throw unknownTsig(row.tsig_id!)
  }
  return row
}

/** Live zones of the account whose incoming or outgoing configuration names peer ?1. */
const ZONES_USING = `SELECT z.id, z.name, s.kind FROM zones AS z JOIN (
    SELECT zone_id, peers, 'outgoing' AS kind FROM zone_transfers_outgoing
    UNION ALL SELECT zone_id, peers, 'incoming' AS kind FROM zone_transfers_incoming
  ) AS s ON s.zone_id = z.id
  WHERE z.account_id = ?2 AND z.status != 'deleted'
    AND EXISTS (SELECT 1 FROM json_each(s.peers) WHERE value = ?1)`

/** The account's catalog (not deleted) when it names peer ?1. */
const CATALOG_USING = `SELECT c.id, c.name, 'catalog' AS kind FROM transfer_catalogs AS c
  WHERE c.account_id = ?2 AND c.deleted_on IS NULL
    AND EXISTS (SELECT 1 FROM json_each(c.peers) WHERE value = ?1)`

/**
 * Deletes the peer unless a zone's configuration or the account's catalog names it (then 409
 * naming them).
 */
export async function deletePeer({ db, accountId }: AccountDb, id: string): Promise<void> {
  const r = await db
    .prepare(
      `DELETE FROM transfer_peers WHERE id = ?1 AND account_id = ?2 AND ${notFencedSql(2)}
       AND NOT EXISTS (${ZONES_USING}) AND NOT EXISTS (${CATALOG_USING})`
    )
    .bind(id, accountId)
    .run()
  if (r.meta.changes > 0) return
  await refuseIfFenced(db, accountId)
  await getPeer({ db, accountId }, id)
  const { results } = await db
    .prepare(`${ZONES_USING} UNION ALL ${CATALOG_USING} LIMIT 10`)
    .bind(id, accountId)
    .all<{ id: string; name: string; kind: string }>()
  throw new ApiError(
    409,
    Codes.transferInUse,
    `Peer ${id} is named by ${results.map((z) => `the ${z.kind} configuration of ${z.name} (${z.id})`).join(', ')}: remove it from those before deleting the peer`
  )
}
