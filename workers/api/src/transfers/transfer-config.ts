/**
 * @module What outgoing transfers of one zone are allowed to do, read from the zone-transfer tables
 * on the zone's shard: whether they are enabled, the zone's peers (address, port, TSIG key) and the
 * account's ACLs; and the check of a client address against them.
 */
import { parseTsigKey, type TsigKey } from '@edgedns/zone-transfer'
import ipaddr from 'ipaddr.js'

export interface OutgoingPeer {
  id: string
  name: string
  ip: string | null
  port: number
  key: TsigKey | null
}

export interface OutgoingConfig {
  zoneId: string
  enabled: boolean
  peers: OutgoingPeer[]
  /** The account's ACL ranges (CIDR). */
  acls: string[]
}

interface PeerRow {
  id: string
  name: string
  ip: string | null
  port: number | null
  tsig_name: string | null
  tsig_algo: string | null
  tsig_secret: string | null
}

/** The DNS port peers listen on when the peer row names none. */
const DEFAULT_DNS_PORT = 53

function peerIds(json: string): string[] {
  try {
    const ids = JSON.parse(json) as unknown
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []
  } catch {
    return []
  }
}

/** A stored key as `@edgedns/zone-transfer` wants it; null when its algorithm is not supported. */
function keyOf(row: PeerRow): TsigKey | null {
  if (!row.tsig_name || !row.tsig_algo || !row.tsig_secret) return null
  try {
    return parseTsigKey(`${row.tsig_algo.replace(/\.$/, '')}:${row.tsig_name}:${row.tsig_secret}`)
  } catch {
    return null
  }
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
  const ids = peerIds(settings.peers)
  const [peers, acls] = await db.batch<PeerRow | { ip_range: string }>([
    db
      .prepare(
        `SELECT p.id, p.name, p.ip, p.port, t.name AS tsig_name, t.algo AS tsig_algo,
           t.secret AS tsig_secret
         FROM transfer_peers p LEFT JOIN transfer_tsigs t
           ON t.id = p.tsig_id AND t.account_id = p.account_id
         WHERE p.account_id = ?1 AND p.id IN (SELECT value FROM json_each(?2))`
      )
      .bind(accountId, JSON.stringify(ids)),
    db.prepare('SELECT ip_range FROM transfer_acls WHERE account_id = ?1').bind(accountId),
  ])
  return {
    zoneId,
    enabled: settings.enabled === 1,
    peers: (peers!.results as PeerRow[]).map((row) => ({
      id: row.id,
      name: row.name,
      ip: row.ip,
      port: row.port ?? DEFAULT_DNS_PORT,
      key: keyOf(row),
    })),
    acls: (acls!.results as { ip_range: string }[]).map((r) => r.ip_range),
  }
}

/** The address in one form for comparison (IPv4-mapped IPv6 as IPv4), or null when not an address. */
function address(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const a = ipaddr.parse(text.trim())
    return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()
      ? (a as ipaddr.IPv6).toIPv4Address()
      : a
  } catch {
    return null
  }
}

function inRange(client: ipaddr.IPv4 | ipaddr.IPv6, cidr: string): boolean {
  try {
    const [range, bits] = ipaddr.parseCIDR(cidr.trim())
    return client.kind() === range.kind() && client.match(range, bits)
  } catch {
    return false
  }
}

/** Whether `client` may transfer: inside one of the ACL ranges, or the address of one of the peers. */
export function clientAllowed(config: OutgoingConfig, client: string): boolean {
  const a = address(client)
  if (!a) return false
  if (config.acls.some((cidr) => inRange(a, cidr))) return true
  return config.peers.some((p) => {
    const ip = p.ip ? address(p.ip) : null
    return (
      ip !== null && ip.kind() === a.kind() && ip.toNormalizedString() === a.toNormalizedString()
    )
  })
}

/** The TSIG keys of the zone's peers: when there are any, a transfer must be signed with one. */
export function peerKeys(config: OutgoingConfig): TsigKey[] {
  const keys = new Map<string, TsigKey>()
  for (const p of config.peers) if (p.key) keys.set(`${p.key.name}|${p.key.algorithm}`, p.key)
  return [...keys.values()]
}

/** Whether `text` is an IPv4 or IPv6 address (a client address a front reports). */
export function isClientAddress(text: string): boolean {
  return address(text) !== null
}
