/**
 * Three D1 shards (vitest project `shards`): accounts spread over the shards, zone names unique and
 * zones never nested across accounts, whichever shards the accounts are on.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, expectError } from '../../../../test/api/helpers.ts'
import { makeSmallest } from '../../../../test/api/shard-bytes.ts'
import { moveAndWait } from '../../../../test/api/shard-move.ts'
import { forgetShardSizes } from './shard-sizes.ts'

const shards = (): D1Database[] => {
  const bag = env as unknown as Record<string, D1Database>
  return [env.DB, bag.DB_1!, bag.DB_2!]
}

let n = 0
async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `shard-test-${n++}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

async function createZone(accountId: string, name: string) {
  return api('POST', '/zones', { name, account: { id: accountId } })
}

async function shardOf(accountId: string): Promise<number> {
  const res = await api('GET', `/accounts/${accountId}/shard`)
  expect(res.status).toBe(200)
  return res.body.result.shard
}

/** Which shards hold a live row of the zone. */
async function shardsHolding(zoneId: string): Promise<number[]> {
  const held: number[] = []
  for (const [i, db] of shards().entries()) {
    const row = await db
      .prepare("SELECT 1 AS x FROM zones WHERE id = ?1 AND status != 'deleted'")
      .bind(zoneId)
      .first()
    if (row) held.push(i)
  }
  return held
}

describe('accounts on three D1 shards', () => {
  it("places the zones of different accounts on different shards, each zone on its account's shard only", async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()]
    const zones = []
    for (const [i, a] of accounts.entries()) {
      const res = await createZone(a, `spread-${i}.example`)
      expect(res.status).toBe(200)
      zones.push(res.body.result.id as string)
    }
    const placed = await Promise.all(accounts.map(shardOf))
    expect(new Set(placed).size).toBe(3)
    for (const [i, z] of zones.entries()) expect(await shardsHolding(z)).toEqual([placed[i]])
    // Served from its shard through the API: read, list, write.
    for (const [i, z] of zones.entries()) {
      expect((await api('GET', `/zones/${z}`)).body.result.name).toBe(`spread-${i}.example`)
      const rec = await api('POST', `/zones/${z}/dns_records`, {
        type: 'A',
        name: `www.spread-${i}.example`,
        content: '192.0.2.7',
      })
      expect(rec.status).toBe(200)
      const rows = await shards()
        [placed[i]!]!.prepare('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1')
        .bind(z)
        .first<{ n: number }>()
      expect(rows!.n).toBe(1)
    }
    const listed = await api('GET', '/zones?name=starts_with:spread-&per_page=50')
    expect(listed.body.result.map((z: { id: string }) => z.id).sort()).toEqual([...zones].sort())
    expect(listed.body.result_info.total_count).toBe(3)
  })

  it('lists zones of accounts on different shards in one order, by page and by cursor alike', async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()]
    const names: string[] = []
    // Interleaved names: consecutive names in the order live on different shards.
    for (let i = 0; i < 12; i++) {
      const name = `order-${String(i).padStart(2, '0')}.example`
      expect((await createZone(accounts[i % 3]!, name)).status).toBe(200)
      names.push(name)
    }
    for (const [shard, a] of accounts.entries()) {
      if ((await shardOf(a)) === shard) continue
      const moved = await moveAndWait(a, shard)
      expect(moved.started.status).toBe(202)
    }
    expect(await Promise.all(accounts.map(shardOf))).toEqual([0, 1, 2])
    for (const direction of ['asc', 'desc'] as const) {
      const want = direction === 'asc' ? names : [...names].reverse()
      const q = `name=starts_with:order-&order=name&direction=${direction}&per_page=5`
      const byPage: string[] = []
      for (let page = 1; page <= 3; page++) {
        const res = await api('GET', `/zones?${q}&page=${page}`)
        expect(res.body.result_info.total_count).toBe(12)
        byPage.push(...res.body.result.map((z: { name: string }) => z.name))
      }
      expect(byPage).toEqual(want)
      const byCursor: string[] = []
      let cursor: string | undefined
      do {
        const res = await api(
          'GET',
          `/zones?${q}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
        )
        byCursor.push(...res.body.result.map((z: { name: string }) => z.name))
        cursor = res.body.result_info.cursors?.after
      } while (cursor)
      expect(byCursor).toEqual(want)
    }
  })

  it('refuses a page offset past what several shards merge in memory, pointing to the cursor', async () => {
    const res = await api('GET', '/zones?per_page=50&page=202')
    expectError(res, 400, 9000)
    expect(res.body.errors[0]?.message).toContain('cursor')
    expect((await api('GET', '/zones?per_page=50&page=201')).status).toBe(200)
  })

  it('refuses a zone name taken on another shard, and frees it when that zone is deleted', async () => {
    const [a, b] = [await newAccount(), await newAccount()]
    const first = await createZone(a, 'taken.example')
    expect(first.status).toBe(200)
    expect(await createZone(b, 'seed-b.example')).toMatchObject({ status: 200 })
    expect(await shardOf(a)).not.toBe(await shardOf(b))
    expectError(await createZone(b, 'taken.example'), 400, 1061)
    expectError(await createZone(a, 'taken.example'), 400, 1061)
    expect((await api('DELETE', `/zones/${first.body.result.id}`)).status).toBe(200)
    const again = await createZone(b, 'taken.example')
    expect(again.status).toBe(200)
    expect(await shardsHolding(again.body.result.id)).toEqual([await shardOf(b)])
  })

  it("refuses nesting under or above another account's zone across shards, allows it within one account", async () => {
    const [a, b] = [await newAccount(), await newAccount()]
    expect((await createZone(a, 'parent.example')).status).toBe(200)
    expect((await createZone(b, 'x.deep.other.example')).status).toBe(200)
    expect(await shardOf(a)).not.toBe(await shardOf(b))

    const below = await createZone(b, 'sub.parent.example')
    expectError(below, 400, 1097)
    expect(below.body.errors[0]!.message).toMatch(/a subdomain of a zone held by another account/)
    const above = await createZone(a, 'other.example')
    expectError(above, 400, 1097)
    expect(above.body.errors[0]!.message).toMatch(/a parent of a zone held by another account/)

    // The same account may nest its own zones.
    expect((await createZone(a, 'sub.parent.example')).status).toBe(200)
    // Refused names leave nothing reserved behind.
    const free = await env.DB.prepare(
      "SELECT count(*) AS n FROM directory_zones WHERE name IN ('other.example')"
    ).first<{ n: number }>()
    expect(free!.n).toBe(0)
  })

  it('fills a newly added, empty shard first, and can move existing accounts onto it', async () => {
    // Shards 0 and 1 hold more bytes already; shard 2 was just added (bound and migrated).
    await makeSmallest(2)
    forgetShardSizes()
    const fresh = await newAccount()
    expect((await createZone(fresh, 'lands-on-new.example')).status).toBe(200)
    expect(await shardOf(fresh)).toBe(2)

    const old = await newAccount()
    await env.DB.prepare(
      "INSERT INTO directory_accounts (account_id, shard, modified_on) VALUES (?1, 0, '2026-01-01T00:00:00Z')"
    )
      .bind(old)
      .run()
    const zone = await createZone(old, 'rebalanced.example')
    expect(await shardsHolding(zone.body.result.id)).toEqual([0])
    // Read once, so this isolate caches the zone's route to shard 0 before the move.
    expect((await api('GET', `/zones/${zone.body.result.id}`)).status).toBe(200)
    const moved = await moveAndWait(old, 2)
    expect(moved.started.status).toBe(202)
    expect(moved.done).toMatchObject({ from: 0, shard: 2, status: 'done' })
    expect(await shardsHolding(zone.body.result.id)).toEqual([2])
    // The stale cached route is noticed (the zone is gone from shard 0) and replaced.
    expect((await api('GET', `/zones/${zone.body.result.id}`)).body.result.name).toBe(
      'rebalanced.example'
    )
    const write = await api('POST', `/zones/${zone.body.result.id}/dns_records`, {
      type: 'A',
      name: 'www.rebalanced.example',
      content: '192.0.2.9',
    })
    expect(write.status).toBe(200)
    const onNew = await (env as unknown as Record<string, D1Database>)
      .DB_2!.prepare("SELECT count(*) AS n FROM dns_records WHERE name = 'www.rebalanced.example'")
      .first<{ n: number }>()
    expect(onNew!.n).toBe(1)
  })

  it('takes over a name the directory still holds for a zone gone from its shard, once the hold is stale', async () => {
    const a = await newAccount()
    const reserve = (zoneId: string, name: string, ageMs: number) =>
      env.DB.prepare(
        'INSERT INTO directory_zones (zone_id, account_id, name, name_rev, created_on) VALUES (?1, ?2, ?3, ?4, ?5)'
      )
        .bind(
          zoneId,
          a,
          name,
          name.split('.').reverse().join('.'),
          new Date(Date.now() - ageMs).toISOString()
        )
        .run()
    // A delete that stopped after its shard commit: no live zone, the name still reserved.
    await reserve('f0000000000000000000000000000001', 'orphan.example', 120_000)
    expect((await createZone(a, 'orphan.example')).status).toBe(200)
    // A fresh reservation may be a creation still under way: it is respected.
    await reserve('f0000000000000000000000000000002', 'in-flight.example', 0)
    expectError(await createZone(a, 'in-flight.example'), 400, 1061)
  })
})
