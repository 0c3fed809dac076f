/**
 * @module What outgoing transfers of one zone are allowed to do, read from the zone-transfer tables
 * on the zone's shard: whether they are enabled, the zone's peers (address, port, TSIG key) and the
 * account's ACLs; and the check of a client address against them.
 */
import type { TsigKey } from '@edgedns/zone-transfer'
import { inRange, parseAddress, sameAddress } from './addresses.ts'
import { parseIds } from './fields.ts'
import { readPeersWithKeys, type PeerWithKey } from './peer-keys.ts'

export type OutgoingPeer = PeerWithKey

export interface OutgoingConfig {
  zoneId: string
  enabled: boolean
  peers: OutgoingPeer[]
  /** The account's ACL ranges (CIDR). */
  acls: string[]
}

/** The outgoing configuration of a zone of `accountId`, or null when it has none. */
export async function outgoingConfig(
  db: D1Database,
  accountId: string,
  zoneId: string
): Promise<OutgoingConfig | null> {
  const settings = await db
    .prepare('SELECT peers, enabled FROM zone_transfers_outgoing WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ peers: string; enabled: number }>()
  if (!settings) return null
  return transferConfig(db, accountId, zoneId, settings)
}

/**
 * The configuration of transfers of one zone (or the account's catalog) from its stored settings:
 * its peers with their keys, and the account's ACLs.
 */
export async function transferConfig(
  db: D1Database,
  accountId: string,
  zoneId: string,
  settings: { peers: string; enabled: number }
): Promise<OutgoingConfig> {
  const [peers, acls] = await Promise.all([
    readPeersWithKeys(db, accountId, parseIds(settings.peers)),
    db
      .prepare('SELECT ip_range FROM transfer_acls WHERE account_id = ?1')
      .bind(accountId)
      .all<{ ip_range: string }>(),
  ])
  return {
    zoneId,
    enabled: settings.enabled === 1,
    peers,
    acls: acls.results.map((r) => r.ip_range),
  }
}

/** Whether `client` may transfer: inside one of the ACL ranges, or the address of one of the peers. */
export function clientAllowed(config: OutgoingConfig, client: string): boolean {
  const a = parseAddress(client)
  if (!a) return false
  if (config.acls.some((cidr) => inRange(a, cidr))) return true
  return config.peers.some((p) => p.ip !== null && sameAddress(p.ip, client))
}

/** The usable TSIG keys of the zone's peers. */
export function peerKeys(config: OutgoingConfig): TsigKey[] {
  const keys = new Map<string, TsigKey>()
  for (const p of config.peers) if (p.key) keys.set(`${p.key.name}|${p.key.algorithm}`, p.key)
  return [...keys.values()]
}

/**
 * Whether a transfer must be signed: some peer has a TSIG key (one that cannot be used still
 * counts, so that a broken key never means "unsigned").
 */
export function tsigRequired(config: OutgoingConfig): boolean {
  return config.peers.some((p) => p.key !== null || p.keyUnusable)
}

/** Whether `text` is an IPv4 or IPv6 address (a client address a front reports). */
export function isClientAddress(text: string): boolean {
  return parseAddress(text) !== null
}
