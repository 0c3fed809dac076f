/**
 * Test-only: writes a zone's incoming-transfer settings (a TSIG key, one peer, the zone's
 * `zone_transfers_incoming` row) straight into the local D1 file holding the zone, for tests that
 * need them before the secondary-DNS settings API exists on this branch.
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { inject } from 'vitest'

export interface IncomingRows {
  zoneId: string
  zoneName: string
  ip: string
  port: number
  ixfr: boolean
  tsig: { name: string; algo: string; secret: string } | null
  autoRefreshSeconds?: number
}

function fileHolding(zoneId: string): string {
  const dir = path.join(inject('stackStateDir'), 'v3/d1/miniflare-D1DatabaseObject')
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.sqlite'))) {
    const db = new DatabaseSync(path.join(dir, f), { readOnly: true })
    try {
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'zones'").get()) continue
      if (db.prepare('SELECT 1 FROM zones WHERE id = ?').get(zoneId)) return path.join(dir, f)
    } finally {
      db.close()
    }
  }
  throw new Error(`no local D1 file holds zone ${zoneId}`)
}

const hexId = () => crypto.randomUUID().replaceAll('-', '')

export function writeIncoming(r: IncomingRows): void {
  const db = new DatabaseSync(fileHolding(r.zoneId))
  try {
    const now = new Date().toISOString()
    const { account_id: accountId } = db
      .prepare('SELECT account_id FROM zones WHERE id = ?')
      .get(r.zoneId) as { account_id: string }
    const tsigId = r.tsig ? hexId() : null
    if (r.tsig)
      db.prepare(
        'INSERT INTO transfer_tsigs (id, account_id, name, algo, secret, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?, ?)'
      ).run(tsigId, accountId, r.tsig.name, r.tsig.algo, r.tsig.secret, now, now)
    const peerId = hexId()
    db.prepare(
      'INSERT INTO transfer_peers (id, account_id, name, ip, port, ixfr_enable, tsig_id, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'
    ).run(
      peerId,
      accountId,
      `primary-${peerId.slice(0, 6)}`,
      r.ip,
      r.port,
      r.ixfr ? 1 : 0,
      tsigId,
      now,
      now
    )
    db.prepare(
      `INSERT INTO zone_transfers_incoming (zone_id, name, peers, auto_refresh_seconds, created_on, modified_on)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (zone_id) DO UPDATE SET peers = excluded.peers, auto_refresh_seconds = excluded.auto_refresh_seconds`
    ).run(r.zoneId, r.zoneName, JSON.stringify([peerId]), r.autoRefreshSeconds ?? 86400, now, now)
  } finally {
    db.close()
  }
}
