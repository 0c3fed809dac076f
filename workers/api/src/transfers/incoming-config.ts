/**
 * @module What a secondary zone transfers from: its incoming settings (`zone_transfers_incoming`),
 * each primary (`transfer_peers`, in the settings' order) with the TSIG key it signs with
 * (`transfer_tsigs`), and the zone row's name, type and SOA. Read from the zone's D1 shard.
 */
import type { TsigKey } from '@edgedns/zone-transfer'
import { parseIds } from './fields.ts'
import { heldSql } from './held-copy.ts'
import { readPeersWithKeys } from './peer-keys.ts'

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
  /** The serial of the copy the zone holds (held-copy.ts); null when it holds none. */
  soaSerial: number | null
  primaries: Primary[]
}

/** The zone's incoming configuration, or null when the zone or its incoming settings are gone. */
export async function readIncoming(db: D1Database, zoneId: string): Promise<IncomingConfig | null> {
  const row = await db
    .prepare(
      `SELECT z.name AS zone_name, z.account_id, z.type, i.peers, i.auto_refresh_seconds,
         ${heldSql('z', 'secondary_serial')} AS soa_serial
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
  const primaries: Primary[] = []
  for (const p of await readPeersWithKeys(db, row.account_id, parseIds(row.peers))) {
    // A key that cannot be used never means "unsigned": that primary is left out.
    if (!p.ip || p.keyUnusable) continue
    primaries.push({ id: p.id, ip: p.ip, port: p.port, ixfr: p.ixfr, key: p.key })
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
