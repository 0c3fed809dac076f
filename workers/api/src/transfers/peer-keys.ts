/**
 * @module The peers a zone's transfer settings name, read with the TSIG key each signs with: one
 * query over `transfer_peers` and `transfer_tsigs` on the zone's shard, in the settings' order.
 * A peer whose stored key cannot be used (an algorithm the transfer code lacks, a bad secret) is
 * marked `keyUnusable`: callers never treat it as a peer without a key.
 */
import { parseTsigKey, type TsigKey } from '@edgedns/zone-transfer'

/** The DNS port a peer listens on when its row names none. */
const DEFAULT_DNS_PORT = 53

export interface PeerWithKey {
  id: string
  name: string
  ip: string | null
  port: number
  ixfr: boolean
  key: TsigKey | null
  /** The peer names a TSIG key that cannot be used. */
  keyUnusable: boolean
}

export interface PeerRow {
  id: string
  name: string
  ip: string | null
  port: number | null
  ixfr_enable: number
  tsig_name: string | null
  tsig_algo: string | null
  tsig_secret: string | null
}

/** A stored key as `@edgedns/zone-transfer` wants it; null when it cannot be used. */
function keyOf(row: PeerRow): TsigKey | null {
  try {
    return parseTsigKey(`${row.tsig_algo!.replace(/\.$/, '')}:${row.tsig_name}:${row.tsig_secret}`)
  } catch {
    return null
  }
}

/**
 * The select of peer rows with their keys: the peers of account `?{account}` whose ids are in the
 * JSON array `?{ids}` (each placeholder an SQL expression, so a caller can read them in a batch).
 */
export const peersWithKeysSql = (account: string, ids: string): string =>
  `SELECT p.id, p.name, p.ip, p.port, p.ixfr_enable, t.name AS tsig_name, t.algo AS tsig_algo,
     t.secret AS tsig_secret
   FROM transfer_peers AS p LEFT JOIN transfer_tsigs AS t
     ON t.id = p.tsig_id AND t.account_id = p.account_id
   WHERE p.account_id = ${account} AND p.id IN (SELECT value FROM json_each(${ids}))`

/** The peers of `accountId` among `ids`, in the order of `ids` (unknown ids left out). */
export async function readPeersWithKeys(
  db: D1Database,
  accountId: string,
  ids: string[]
): Promise<PeerWithKey[]> {
  if (ids.length === 0) return []
  const { results } = await db
    .prepare(peersWithKeysSql('?1', '?2'))
    .bind(accountId, JSON.stringify(ids))
    .all<PeerRow>()
  return peersInOrder(results, ids)
}

/** Rows read with `peersWithKeysSql` as peers, in the order of `ids` (unknown ids left out). */
export function peersInOrder(results: readonly PeerRow[], ids: string[]): PeerWithKey[] {
  const byId = new Map(results.map((r) => [r.id, r]))
  return ids.flatMap((id) => {
    const row = byId.get(id)
    if (!row) return []
    const named = row.tsig_name !== null && row.tsig_algo !== null && row.tsig_secret !== null
    const key = named ? keyOf(row) : null
    return [
      {
        id,
        name: row.name,
        ip: row.ip,
        port: row.port ?? DEFAULT_DNS_PORT,
        ixfr: row.ixfr_enable === 1,
        key,
        keyUnusable: named && key === null,
      },
    ]
  })
}
