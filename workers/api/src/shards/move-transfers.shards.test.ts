/**
 * An account move carries the account's zone-transfer configuration: its TSIG keys, peers, ACLs
 * and catalog (in keyset pages), and each zone's incoming / outgoing configuration, with the changes made while
 * the move copies; the source keeps none of it afterwards.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../../../test/api/helpers.ts'
import { moveAndWait } from '../../../../test/api/shard-move.ts'
import type { MoveJob } from './move-job.ts'
import { moveStep, planMove } from './move.ts'

const shard = (i: number): D1Database =>
  i === 0 ? env.DB : (env as unknown as Record<string, D1Database>)[`DB_${i}`]!

const ACCOUNT_TABLES = ['transfer_tsigs', 'transfer_peers', 'transfer_acls', 'transfer_catalogs']
const ZONE_TABLES = ['zone_transfers_outgoing', 'zone_transfers_incoming']
const SECRET = btoa('0123456789abcdef0123456789abcdef')

/** Every transfer row of the account (and its zones) on one shard, table by table, sorted. */
async function transferRows(db: D1Database, accountId: string, zoneIds: string[]) {
  const out: Record<string, unknown[]> = {}
  for (const t of ACCOUNT_TABLES)
    out[t] = (
      await db.prepare(`SELECT * FROM ${t} WHERE account_id = ?1 ORDER BY id`).bind(accountId).all()
    ).results
  for (const t of ZONE_TABLES)
    out[t] = (
      await db
        .prepare(
          `SELECT * FROM ${t} WHERE zone_id IN (SELECT value FROM json_each(?1)) ORDER BY zone_id`
        )
        .bind(JSON.stringify(zoneIds))
        .all()
    ).results
  out.zone_serials = (
    await db
      .prepare(
        'SELECT * FROM zone_serials WHERE zone_id IN (SELECT value FROM json_each(?1)) ORDER BY zone_id, seq'
      )
      .bind(JSON.stringify(zoneIds))
      .all()
  ).results
  return out
}

async function post(path: string, body: unknown): Promise<any> {
  const res = await api('POST', path, body)
  if (res.status !== 200) throw new Error(`POST ${path}: ${JSON.stringify(res.body)}`)
  return res.body.result
}

describe('moving an account with zone-transfer configuration', () => {
  it(
    'carries TSIG keys, peers, ACLs (several pages) and zone configurations, and clears the source',
    { timeout: 60_000 },
    async () => {
      const account = (await api('POST', '/accounts', { name: 'xfr-mover' })).body.result
        .id as string
      const base = `/accounts/${account}/secondary_dns`
      const primary = (
        await post('/zones', { name: 'xfr-mover.example', account: { id: account } })
      ).id as string
      const secondary = (
        await post('/zones', {
          name: 'xfr-mover-2.example',
          account: { id: account },
          type: 'secondary',
        })
      ).id as string
      const zones = [primary, secondary]
      const key = await post(`${base}/tsigs`, {
        name: 'mover-key',
        algo: 'hmac-sha256',
        secret: SECRET,
      })
      const peer = await post(`${base}/peers`, { name: 'ns1' })
      await api('PUT', `${base}/peers/${peer.id}`, {
        name: 'ns1',
        ip: '192.0.2.53',
        tsig_id: key.id,
        ixfr_enable: true,
      })
      await post(`${base}/acls`, { name: 'secondaries', ip_range: '192.0.2.0/24' })
      await api('PUT', `${base}/catalog`, {
        name: 'catalog.xfr-mover.example.net',
        peers: [peer.id],
      })
      await post(`/zones/${primary}/secondary_dns/outgoing`, {
        name: 'xfr-mover.example',
        peers: [peer.id],
      })
      await api('POST', `/zones/${primary}/secondary_dns/outgoing/enable`)
      await post(`/zones/${secondary}/secondary_dns/incoming`, {
        name: 'xfr-mover-2.example',
        peers: [peer.id],
        auto_refresh_seconds: 3600,
      })
      // Serials of earlier changes: an IXFR from them is answered from the change log after the move.
      for (const name of ['a', 'b'])
        await post(`/zones/${primary}/dns_records`, { type: 'A', name, content: '192.0.2.1' })
      const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
      const to = (from + 1) % 3
      // More ACLs than one page of a move holds.
      await shard(from)
        .prepare(
          `INSERT INTO transfer_acls (id, account_id, name, ip_range, created_on, modified_on)
         SELECT printf('%032x', value), ?1, 'bulk-' || value, '198.51.100.0/24', 'x', 'x'
         FROM json_each(?2)`
        )
        .bind(account, JSON.stringify(Array.from({ length: 1100 }, (_, i) => i + 1)))
        .run()
      const before = await transferRows(shard(from), account, zones)
      expect(before.transfer_acls).toHaveLength(1101)
      expect(before.zone_serials!.length).toBeGreaterThanOrEqual(3)
      expect(before.transfer_catalogs).toHaveLength(1)

      const { done } = await moveAndWait(account, to)
      expect(done).toMatchObject({ status: 'done' })
      expect(await transferRows(shard(to), account, zones)).toEqual(before)
      const left = await transferRows(shard(from), account, zones)
      for (const t of [...ACCOUNT_TABLES, ...ZONE_TABLES, 'zone_serials'])
        expect(left[t], t).toEqual([])
      // The API reads them from the new shard.
      expect((await api('GET', `${base}/peers/${peer.id}`)).body.result).toMatchObject({
        tsig_id: key.id,
      })
      expect(
        (await api('GET', `/zones/${primary}/secondary_dns/outgoing/status`)).body.result
      ).toBe('Enabled')
      expect(
        (await api('GET', `/zones/${secondary}/secondary_dns/incoming`)).body.result.peers
      ).toEqual([peer.id])
    }
  )

  it(
    'carries changes made while the move copies: creates, replaces and deletes',
    { timeout: 60_000 },
    async () => {
      const account = (await api('POST', '/accounts', { name: 'xfr-writer' })).body.result
        .id as string
      const base = `/accounts/${account}/secondary_dns`
      const zoneId = (
        await post('/zones', { name: 'xfr-writer.example', account: { id: account } })
      ).id as string
      const gone = await post(`${base}/tsigs`, {
        name: 'gone',
        algo: 'hmac-sha256',
        secret: SECRET,
      })
      const kept = await post(`${base}/acls`, { name: 'kept', ip_range: '192.0.2.0/24' })
      await post(`/zones/${zoneId}/secondary_dns/outgoing`, {
        name: 'xfr-writer.example',
        peers: [],
      })
      const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
      const to = (from + 1) % 3
      let saved: MoveJob = await planMove(env, account, to)
      // One step copies the zone's rows; then the account changes before the fence.
      saved = await moveStep(env, saved, async (j) => void (saved = j), 4)
      expect(saved.phase).not.toBe('final')
      expect((await api('DELETE', `${base}/tsigs/${gone.id}`)).status).toBe(200)
      await api('PUT', `${base}/acls/${kept.id}`, { name: 'renamed', ip_range: '203.0.113.0/24' })
      const added = await post(`${base}/peers`, { name: 'late' })
      expect((await api('DELETE', `/zones/${zoneId}/secondary_dns/outgoing`)).status).toBe(200)
      for (let i = 0; saved.phase !== 'done' && i < 200; i++)
        saved = await moveStep(env, saved, async (j) => void (saved = j), 20)
      expect(saved.phase).toBe('done')
      const after = await transferRows(shard(to), account, [zoneId])
      expect(after.transfer_tsigs).toEqual([])
      expect(after.transfer_acls).toMatchObject([
        { id: kept.id, name: 'renamed', ip_range: '203.0.113.0/24' },
      ])
      expect(after.transfer_peers).toMatchObject([{ id: added.id, name: 'late' }])
      expect(after.zone_transfers_outgoing).toEqual([])
    }
  )

  it('moves an account that has transfer configuration and no zone yet', async () => {
    const account = (await api('POST', '/accounts', { name: 'xfr-zoneless' })).body.result
      .id as string
    const key = await post(`/accounts/${account}/secondary_dns/tsigs`, {
      name: 'zoneless',
      algo: 'hmac-sha512',
      secret: SECRET,
    })
    // The write placed the account on a shard, as a first zone would.
    const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
    const to = (from + 1) % 3
    expect((await moveAndWait(account, to)).done).toMatchObject({ status: 'done' })
    expect(
      (await api('GET', `/accounts/${account}/secondary_dns/tsigs/${key.id}`)).body.result
    ).toEqual(key)
    expect((await transferRows(shard(from), account, [])).transfer_tsigs).toEqual([])
  })

  it('writes only the columns the destination has (a column dropped there first)', async () => {
    const account = (await api('POST', '/accounts', { name: 'xfr-ahead' })).body.result.id as string
    const zoneId = (
      await post('/zones', {
        name: 'xfr-ahead.example',
        account: { id: account },
        type: 'secondary',
      })
    ).id as string
    const peer = await post(`/accounts/${account}/secondary_dns/peers`, { name: 'ns1' })
    await post(`/zones/${zoneId}/secondary_dns/incoming`, {
      name: 'xfr-ahead.example',
      peers: [peer.id],
      auto_refresh_seconds: 3600,
    })
    const from = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
    const to = (from + 1) % 3
    const dst = shard(to)
    await dst.prepare('ALTER TABLE zone_transfers_incoming DROP COLUMN checked_on').run()
    try {
      expect((await moveAndWait(account, to)).done).toMatchObject({ status: 'done' })
      const moved = await dst
        .prepare('SELECT * FROM zone_transfers_incoming WHERE zone_id = ?1')
        .bind(zoneId)
        .first()
      expect(moved).toMatchObject({ peers: JSON.stringify([peer.id]), auto_refresh_seconds: 3600 })
      expect(moved).not.toHaveProperty('checked_on')
    } finally {
      await dst.prepare('ALTER TABLE zone_transfers_incoming ADD COLUMN checked_on text').run()
    }
  })
})
