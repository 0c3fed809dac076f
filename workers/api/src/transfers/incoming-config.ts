/**
 * @module What a secondary zone transfers from: its incoming settings (`zone_transfers_incoming`),
 * each primary (`transfer_peers`, in the settings' order) with the TSIG key it signs with
 * (`transfer_tsigs`), and the zone row's name, type and SOA. Read from the zone's D1 shard.
 */
import type { TsigAlgorithm, TsigKey } from '@edgedns/zone-transfer'

export interface Primary {
  id: string
  ip: string
  port: number
  ixfr: boolean
  key: TsigKey | null
}

export interface IncomingConfig {
  zoneId: string
  zoneName: string
  accountId: string
  /** The zone's type: transfers run only for 'secondary'. */
  type: string
  autoRefreshSeconds: number
  /** The serial of the last transfer committed; null before the first. */
  soaSerial: number | null
  primaries: Primary[]
}

/** DNS over TCP when a peer names no port. */
const DNS_PORT = 53

const ALGORITHMS: Record<string, TsigAlgorithm> = {
  'hmac-sha256': 'hmac-sha256',
  'hmac-sha512': 'hmac-sha512',
}

/** A stored TSIG key as the transfer code uses it; null when its algorithm is not supported. */
function tsigKeyOf(row: { name: string; algo: string; secret: string }): TsigKey | null {
  const algorithm = ALGORITHMS[row.algo.toLowerCase().replace(/\.$/, '')]
  if (!algorithm) return null
  try {
    const secret = Uint8Array.from(atob(row.secret), (ch) => ch.charCodeAt(0))
    return { name: row.name.toLowerCase().replace(/\.$/, ''), algorithm, secret }
  } catch {
    return null
  }
}

interface PeerRow {
  id: string
  ip: string | null
  port: number | null
  ixfr_enable: number
  tsig_name: string | null
  tsig_algo: string | null
  tsig_secret: string | null
}

function peerIds(json: string): string[] {
  try {
    const ids = JSON.parse(json) as unknown
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []
  } catch {
    return []
  }
}

/** The zone's incoming configuration, or null when the zone or its incoming settings are gone. */
export async function readIncoming(db: D1Database, zoneId: string): Promise<IncomingConfig | null> {
  const row = await db
    .prepare(
      `SELECT z.name AS zone_name, z.account_id, z.type, i.peers, i.auto_refresh_seconds, i.soa_serial
       FROM zones AS z JOIN zone_transfers_incoming AS i ON i.zone_id = z.id
       WHERE z.id = ?1 AND z.status != 'deleted'`
    )
    .bind(zoneId)
    .first<{
      zone_name: string
      account_id: string
      type: string
      peers: string
      auto_refresh_seconds: number
      soa_serial: number | null
    }>()
  if (!row) return null
  const ids = peerIds(row.peers)
  const peers = ids.length
    ? (
        await db
          .prepare(
            `SELECT p.id, p.ip, p.port, p.ixfr_enable, t.name AS tsig_name, t.algo AS tsig_algo, t.secret AS tsig_secret
             FROM transfer_peers AS p LEFT JOIN transfer_tsigs AS t ON t.id = p.tsig_id AND t.account_id = p.account_id
             WHERE p.account_id = ?1 AND p.id IN (SELECT value FROM json_each(?2))`
          )
          .bind(row.account_id, JSON.stringify(ids))
          .all<PeerRow>()
      ).results
    : []
  const byId = new Map(peers.map((p) => [p.id, p]))
  const primaries: Primary[] = []
  for (const id of ids) {
    const p = byId.get(id)
    if (!p?.ip) continue
    const key =
      p.tsig_name && p.tsig_algo && p.tsig_secret
        ? tsigKeyOf({ name: p.tsig_name, algo: p.tsig_algo, secret: p.tsig_secret })
        : null
    // A key that cannot be used never means "unsigned": that primary is left out.
    if (p.tsig_name && !key) continue
    primaries.push({ id, ip: p.ip, port: p.port ?? DNS_PORT, ixfr: p.ixfr_enable === 1, key })
  }
  return {
    zoneId,
    zoneName: row.zone_name,
    accountId: row.account_id,
    type: row.type,
    autoRefreshSeconds: row.auto_refresh_seconds,
    soaSerial: row.soa_serial,
    primaries,
  }
}
