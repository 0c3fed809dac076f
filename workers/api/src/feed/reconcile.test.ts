import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { maintain } from '../cron/maintenance.ts'
import { applyStrictLimits, inInvocation } from '@edgedns/strict-bindings'
import { reconcileFeed, RECONCILE_INTERVAL_MS, SERVED_SQL } from './reconcile.ts'
import { primaryFeed } from './zone-feed.ts'

const ACCOUNT = 'a0000000000000000000000000000001'

/** A zone row written straight into D1: no builder ever ran for it, so the feed never heard of it. */
async function seedZone(
  id: string,
  name: string,
  status: string,
  activated: boolean
): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO zones (id, account_id, name, name_rev, status, name_servers, soa_mname, soa_rname,
       serial, created_on, modified_on, activated_on)
     VALUES (?1, ?2, ?3, ?4, ?5, '[]', 'ns1.example', 'dns.example', 1, ?6, ?6, ?7)`
  )
    .bind(
      id,
      ACCOUNT,
      name,
      name.split('.').reverse().join('.'),
      status,
      '2026-01-01T00:00:00Z',
      activated ? '2026-01-01T00:00:00Z' : null
    )
    .run()
}

describe('feed reconciliation from the cron', () => {
  it('adds a served zone the feed did not know, deletes one D1 does not serve, and makes the feed complete', async () => {
    await seedZone('f0000000000000000000000000000001', 'unknown-to-feed.example', 'active', true)
    await seedZone('f0000000000000000000000000000002', 'pending.example', 'pending', false)
    await seedZone('f0000000000000000000000000000003', 'deleted.example', 'deleted', true)
    const feed = primaryFeed(env)
    await feed.append([{ zone: 'ghost.example', id: 'ghost-id', n: 4, op: 'head' }])
    const before = await feed.poll({ cursor: null, epoch: null })
    expect(before.complete).toBe(false)

    await inInvocation(() => maintain(applyStrictLimits(env)))

    const after = await feed.poll({ cursor: before.seq, epoch: before.epoch })
    expect(after.complete).toBe(true)
    expect(after.entries.map(({ zone, id, n, op }) => ({ zone, id, n, op }))).toEqual([
      { zone: 'unknown-to-feed.example', id: 'f0000000000000000000000000000001', n: 0, op: 'head' },
      { zone: 'ghost.example', id: 'ghost-id', n: 4, op: 'delete' },
    ])
    // Once complete and checked, the next runs leave D1 alone until the interval has passed.
    expect(await reconcileFeed(applyStrictLimits(env))).toBe('skipped')
    expect(await reconcileFeed(applyStrictLimits(env), Date.now() + RECONCILE_INTERVAL_MS)).toBe(
      'unchanged'
    )
  })

  it('reads the served zones a page at a time through the name index, never a scan of the zones', async () => {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${SERVED_SQL}`)
      .bind('m.example', 'f0', 5000)
      .all<{ detail: string }>()
    const details = results.map((r) => r.detail)
    expect(details.some((d) => /^SEARCH zones USING INDEX zones_name \(name>\?\)/.test(d))).toBe(
      true
    )
    expect(details.filter((d) => /^SCAN zones\b/.test(d))).toEqual([])
  })
})
