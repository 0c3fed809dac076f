/**
 * @module Failure handling: KV and D1 errors half-way through a pass or a full build are retried
 * with backoff and converge; dropped notifications (record changes and zone deletes) are healed
 * by the cron sweep.
 */
import {
  createExecutionContext,
  createScheduledController,
  runDurableObjectAlarm,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { applyBatch } from '../../batch/apply.ts'
import worker from '../../index.ts'
import { bucketKey } from '@edgedns/kv-layout'
import {
  api,
  builder,
  converge,
  countingKv,
  createZone,
  failingDb,
  kvMeta,
  kvNames,
  kvNode,
  kvBuckets,
  newCounts,
  settle,
  sleep,
  tweak,
} from './helpers.ts'

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = await fn()
    if (ok(v)) return v
    await sleep(2)
  }
  throw new Error(`timed out waiting for ${what}`)
}

const posts = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({
    type: 'A',
    name: `${prefix}${i}.sub`,
    content: `192.0.2.${i + 1}`,
  }))

async function runSweep(): Promise<void> {
  const ctx = createExecutionContext()
  await worker.scheduled!(
    createScheduledController({ cron: '* * * * *' }),
    env as unknown as Env,
    ctx
  )
  await waitOnExecutionContext(ctx)
}

describe('failures are retried and converge', () => {
  it('a failed head write: the cursor stays, the alarm retries with backoff, KV converges', async () => {
    const z = await createZone('fail')
    await settle(z.id)
    const counts = newCounts()
    const t0 = Date.now()
    await tweak(z.id, (b) => {
      // The pass's first write is its versioned head key (what the feed entry names): fail it.
      b.io = { ...b.io, kv: countingKv(b.io.kv, counts, new Set([1])) }
      b.limits = { ...b.limits, backoffBaseMs: 60_000 }
    })
    expect(
      (await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(10, 'h') })).status
    ).toBe(200)
    const failed = await waitFor(
      () => builder(z.id).status(),
      (s) => s.failures > 0,
      'the failing pass'
    )
    expect(failed.cursor).toBe(1)
    expect(failed.lastError).toMatch(/injected KV failure/)
    expect(failed.alarm).toBeGreaterThanOrEqual(t0 + 60_000)
    const row = await env.DB.prepare(
      'SELECT built_seq, last_error FROM build_state WHERE zone_id = ?1'
    )
      .bind(z.id)
      .first<any>()
    expect(row).toMatchObject({ built_seq: 1 })
    expect(row.last_error).toMatch(/injected/)
    // Nothing of the pass is in KV: the build is not done.
    expect((await converge(z.id)).differences.length).toBeGreaterThan(0)

    expect(await runDurableObjectAlarm(builder(z.id))).toBe(true)
    const status = await settle(z.id)
    expect(status).toMatchObject({ cursor: 11, failures: 0, lastError: null })
    expect((await converge(z.id)).differences).toEqual([])
    const prop = await api('GET', `/zones/${z.id}/propagation`)
    expect(prop.body.result).toMatchObject({ committed_seq: 11, built_seq: 11, last_error: null })
  })

  // A small change's notification says what it touched, and its pass reads log and rows in one
  // D1 batch; a change of more than 100 records comes without that, and its pass reads twice.
  it.each([
    { path: 'one read (hinted)', changes: 3, failOn: [1, 2, 3] },
    { path: 'between reading the log and reading the rows', changes: 101, failOn: [2, 3, 4] },
  ])('a D1 failure $path is retried', async ({ changes, failOn }) => {
    const z = await createZone('fail')
    await settle(z.id)
    await tweak(z.id, (b) => {
      b.io = { ...b.io, db: failingDb(b.io.db, new Set(failOn)) }
      b.limits = { ...b.limits, backoffBaseMs: 60_000 }
    })
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(changes, 'd') })
    await waitFor(
      () => builder(z.id).status(),
      (s) => s.failures === 1,
      'first failure'
    )
    const first = (await builder(z.id).status()).alarm!
    // Retries keep failing, the backoff doubles; work is never dropped.
    await runDurableObjectAlarm(builder(z.id))
    const second = await builder(z.id).status()
    expect(second.failures).toBe(2)
    expect(second.cursor).toBe(1)
    expect(second.alarm! - first).toBeGreaterThanOrEqual(50_000)
    await settle(z.id)
    const names = await kvNames(z.name)
    expect(names).toHaveLength(changes + 1)
    expect(names).toContain(`d0.sub.${z.name}`)
    expect(names).toContain(`d${changes - 1}.sub.${z.name}`)
    expect(names).toContain(`sub.${z.name}`)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a full build that fails in its second invocation resumes where it stopped', async () => {
    const z = await createZone('fail')
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(60, 'f') })
    await settle(z.id)
    const liveCount = (await kvMeta(z.name))!.layout!.buckets
    const garbage = bucketKey(z.name, liveCount === 16 ? 256 : 16, 0)
    await env.ZONES_KV.put(garbage, '{"v":2,"nodes":{}}')
    const counts = newCounts()
    await tweak(z.id, (b) => {
      // One D1 page to the mirror, then 6 buckets per invocation; write 9 fails.
      b.io = { ...b.io, kv: countingKv(b.io.kv, counts, new Set([9])) }
      b.limits = { ...b.limits, maxKvOps: 8, listPage: 20, backoffBaseMs: 60_000 }
    })
    const res = await api('POST', `/zones/${z.id}/propagation/rebuild`)
    expect(res.status).toBe(200)
    await waitFor(
      () => builder(z.id).status(),
      (s) => s.failures > 0,
      'failing full build step'
    )
    expect((await builder(z.id).status()).full).not.toBeNull()
    const status = await settle(z.id)
    const B = (await kvMeta(z.name))!.layout!.buckets
    const live = await kvBuckets(z.name)
    expect(status.lastFullBuild).toMatchObject({
      startSeq: res.body.result.seq,
      keysDeleted: 1, // the bucket of a dead count; empty buckets are written, not deleted
    })
    expect(live.size).toBe(B)
    // Every key is written exactly once by the build, the retried slice included.
    const writes = new Map<string, number>()
    for (const k of counts.puts) writes.set(k, (writes.get(k) ?? 0) + 1)
    // Every bucket, the zone key and two heads (slot and versioned key each): one naming the
    // bucket versions the last pass wrote, before the build, and the one switching to the build.
    const heads = [...writes.keys()].filter((k) => k.startsWith(`h:${z.name}:`))
    expect(heads).toHaveLength(4)
    expect(writes.size).toBe(live.size + 1 + heads.length)
    expect([...writes.entries()].filter(([, n]) => n > 1)).toEqual([])
    expect(counts.deletes).toContain(garbage)
    expect(new Set(counts.deletes).size).toBe(counts.deletes.length)
    expect((await converge(z.id)).differences).toEqual([])
  })
})

describe('the cron sweep heals dropped notifications', () => {
  it('rebuilds changes committed without a notification', async () => {
    const z = await createZone('sweep')
    await settle(z.id)
    // An API worker that crashed right after commit: the change is in D1 and the log, nobody was told.
    await applyBatch(
      env.DB,
      { zoneId: z.id, zoneName: z.name, tokenId: 'test' },
      {
        posts: [
          { type: 'A', name: 'lost', content: '192.0.2.1' },
          { type: 'TXT', name: 'a.b.lost2', content: 'x' },
        ],
      } as any,
      false
    )
    await sleep(20)
    expect(await kvNode(z.name, `lost.${z.name}`)).toBeNull()
    expect((await builder(z.id).status()).alarm).toBeNull()
    const lag = await api('GET', `/zones/${z.id}/propagation`)
    expect(lag.body.result).toMatchObject({ committed_seq: 3, built_seq: 1 })
    expect(lag.body.result.lag_ms).toBeGreaterThanOrEqual(0)

    await runSweep()
    await settle(z.id)
    expect(await kvNode(z.name, `lost.${z.name}`)).not.toBeNull()
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('purges a zone deleted without a notification', async () => {
    const z = await createZone('sweep')
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
    })
    await settle(z.id)
    const now = new Date().toISOString()
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO change_log (zone_id, seq, op, created_on) VALUES (?1, 3, 'zone_delete', ?2)"
      ).bind(z.id, now),
      env.DB.prepare('DELETE FROM dns_records WHERE zone_id = ?1').bind(z.id),
      env.DB.prepare('DELETE FROM zones WHERE id = ?1').bind(z.id),
    ])
    expect(await kvMeta(z.name)).not.toBeNull()
    await runSweep()
    const status = await settle(z.id)
    expect(status.deleted).toBe(true)
    expect(await kvMeta(z.name)).toBeNull()
    expect(await kvNames(z.name)).toEqual([])
    // Nothing is left for the sweep to do.
    const { laggingZones } = await import('../sweep.ts')
    expect((await laggingZones(env.DB)).filter((r) => r.zone_id === z.id)).toEqual([])
  })
})

describe('POST /propagation/sweep', () => {
  it('runs the sweep on demand for admins only, healing a lost notification', async () => {
    const z = await createZone('sweep-api')
    await settle(z.id)
    await applyBatch(
      env.DB,
      { zoneId: z.id, zoneName: z.name, tokenId: 'test' },
      { posts: [{ type: 'A', name: 'healed', content: '192.0.2.9' }] } as any,
      false
    )
    const token = (
      await api('POST', '/user/tokens', {
        name: 'dns',
        policies: [
          {
            permission_groups: [{ name: 'DNS Write' }],
            resources: { 'com.cloudflare.api.account.zone.*': '*' },
          },
        ],
      })
    ).body.result.value
    const denied = await api('POST', '/propagation/sweep', undefined, token)
    expect(denied.status).toBe(403)
    const res = await api('POST', '/propagation/sweep')
    expect(res.status).toBe(200)
    expect(res.body.result.notified).toBeGreaterThanOrEqual(1)
    await settle(z.id)
    expect(await kvNode(z.name, `healed.${z.name}`)).not.toBeNull()
  })
})
