/**
 * Test-only: zone-transfer settings written straight into D1 (TSIG key, peer, ACL, the zone's
 * outgoing row), standing in for the secondary_dns CRUD routes.
 */
import { env } from 'cloudflare:workers'

export interface OutgoingRows {
  zoneId: string
  zoneName: string
  accountId: string
  enabled?: boolean
  acl?: string
  peer?: { ip: string | null; port?: number; key?: { name: string; algo: string; secret: string } }
}

const hex = (): string => crypto.randomUUID().replace(/-/g, '')

export async function configureOutgoing(rows: OutgoingRows): Promise<{ peerId: string | null }> {
  const now = new Date().toISOString()
  const statements: D1PreparedStatement[] = []
  let peerId: string | null = null
  if (rows.peer) {
    peerId = hex()
    if (rows.peer.key) {
      statements.push(
        env.DB.prepare(
          `INSERT INTO transfer_tsigs (id, account_id, name, algo, secret, created_on, modified_on)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
           ON CONFLICT (account_id, name) DO UPDATE SET algo = excluded.algo, secret = excluded.secret`
        ).bind(
          hex(),
          rows.accountId,
          rows.peer.key.name,
          rows.peer.key.algo,
          rows.peer.key.secret,
          now
        )
      )
    }
    statements.push(
      env.DB.prepare(
        `INSERT INTO transfer_peers (id, account_id, name, ip, port, tsig_id, created_on, modified_on)
         VALUES (?1, ?2, ?3, ?4, ?5,
           (SELECT id FROM transfer_tsigs WHERE account_id = ?2 AND name = ?6), ?7, ?7)`
      ).bind(
        peerId,
        rows.accountId,
        `peer-${peerId.slice(0, 6)}`,
        rows.peer.ip,
        rows.peer.port ?? null,
        rows.peer.key?.name ?? null,
        now
      )
    )
  }
  if (rows.acl) {
    statements.push(
      env.DB.prepare(
        `INSERT INTO transfer_acls (id, account_id, name, ip_range, created_on, modified_on)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)`
      ).bind(hex(), rows.accountId, `acl-${rows.acl}`, rows.acl, now)
    )
  }
  statements.push(
    env.DB.prepare(
      `INSERT INTO zone_transfers_outgoing (zone_id, name, peers, enabled, created_on, modified_on)
       VALUES (?1, ?2, ?3, ?4, ?5, ?5)
       ON CONFLICT (zone_id) DO UPDATE SET peers = excluded.peers, enabled = excluded.enabled`
    ).bind(
      rows.zoneId,
      rows.zoneName,
      JSON.stringify(peerId ? [peerId] : []),
      rows.enabled === false ? 0 : 1,
      now
    )
  )
  await env.DB.batch(statements)
  return { peerId }
}
