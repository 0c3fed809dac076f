/**
 * @module The D1-vs-KV convergence check (`propagation/check`) reads a zone in bounded pages: D1 by
 * key in name order, KV by the buckets (at most 100 keys a read), keeping only a digest per bucket.
 * It still finds a divergence seeded anywhere in a large zone, and empty non-terminals come out
 * exactly once whatever the page size (names like `b-x` sort between `b` and `a.b`).
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { bucketKey, bucketOf } from '@edgedns/kv-layout'
import { checkConvergence } from '../convergence.ts'
import { seedRecords } from '../../../../../test/api/seed-records.ts'
import { api, createZone, kvMeta, kvZoneKeys, settle, tweak, unversioned } from './helpers.ts'

/** Records every D1 read's row count and every KV bulk get's key count. */
function measured() {
  const reads: number[] = []
  const kvGets: number[] = []
  const db = new Proxy(env.DB, {
    get(target, k) {
      if (k !== 'prepare') return (target as any)[k].bind(target)
      return (sql: string) => {
        const wrap = (s: D1PreparedStatement): D1PreparedStatement =>
          new Proxy(s, {
            get(t, m) {
              if (m === 'bind') return (...a: unknown[]) => wrap(t.bind(...a))
              if (m === 'all')
                return async () => {
                  const r = await t.all()
                  reads.push(r.results.length)
                  return r
                }
              const v = (t as any)[m]
              return typeof v === 'function' ? v.bind(t) : v
            },
          })
        return wrap(target.prepare(sql))
      }
    },
  })
  const kv = new Proxy(env.ZONES_KV, {
    get(target, k) {
      if (k === 'get')
        return (key: string | string[], o?: any) => (
          kvGets.push(Array.isArray(key) ? key.length : 1),
          (target.get as any)(key, o)
        )
      return (target as any)[k].bind(target)
    },
  })
  return { env: { DB: db, ZONES_KV: kv }, reads, kvGets }
}

async function rebuild(zoneId: string): Promise<void> {
  const res = await api('POST', `/zones/${zoneId}/propagation/rebuild`)
  expect(res.status).toBe(200)
  await settle(zoneId)
}

describe('paged convergence check', () => {
  it('checks a large zone in bounded pages and finds a divergence seeded in it', async () => {
    const z = await createZone('conv-large')
    await settle(z.id)
    const size = 30_000
    await seedRecords(z.id, z.name, size)
    // The old bucket count is retired at once (its grace period is for readers in production).
    await tweak(z.id, (b) => void (b.limits.retireGraceMs = 0))
    await rebuild(z.id)
    const buckets = (await kvMeta(z.name))!.layout!.buckets

    const clean = measured()
    const ok = await checkConvergence(clean.env, z.id, undefined, { pageRows: 1000 })
    expect({ differences: ok.differences, count: ok.differenceCount }).toEqual({
      differences: [],
      count: 0,
    })
    expect(ok.expectedKeys).toBe(buckets + 1)
    expect(Math.max(...clean.reads)).toBeLessThanOrEqual(1000)
    expect(clean.reads.filter((n) => n === 1000).length).toBeGreaterThanOrEqual(size / 1000)
    expect(Math.max(...clean.kvGets)).toBeLessThanOrEqual(100)

    // Divergences: a record changed in D1 behind the builder's back, a bucket lost from KV, and a
    // key of another bucket count left behind.
    const changed = `h0012345.${z.name}`
    await env.DB.prepare(
      "UPDATE dns_records SET content = '198.51.100.7' WHERE zone_id = ?1 AND name = ?2"
    )
      .bind(z.id, changed)
      .run()
    const changedKey = bucketKey(z.name, buckets, bucketOf(changed, buckets))
    let lost = bucketKey(z.name, buckets, 0)
    if (lost === changedKey) lost = bucketKey(z.name, buckets, 1)
    for (const key of await kvZoneKeys(z.name))
      if (unversioned(key) === lost) await env.ZONES_KV.delete(key) // every version of it
    const staleKey = `b:${z.name}:16:3`
    await env.ZONES_KV.put(staleKey, 'left over')

    const seen = measured()
    const report = await checkConvergence(seen.env, z.id, undefined, { pageRows: 1000 })
    expect(Math.max(...seen.reads)).toBeLessThanOrEqual(1000)
    expect(report.differenceCount).toBe(3)
    const byKey = new Map(report.differences.map((d) => [unversioned(d.key), d]))
    expect(byKey.get(changedKey)).toMatchObject({ kind: 'different' })
    expect(byKey.get(changedKey)!.expected).toContain('198.51.100.7')
    expect(byKey.get(changedKey)!.actual).not.toContain('198.51.100.7')
    expect(byKey.get(lost)).toMatchObject({ kind: 'missing' })
    expect(
      byKey
        .get(lost)!
        .expected!.split('\n')
        .filter((l) => /^h\d{7}\t/.test(l)).length
    ).toBeGreaterThan(0)
    expect(byKey.get(staleKey)).toEqual({ key: staleKey, kind: 'stale', actual: 'left over' })

    // The API reports the same.
    const res = await api('GET', `/zones/${z.id}/propagation/check`)
    expect(res.body.result).toMatchObject({ converged: false, difference_count: 3 })
  }, 120_000)

  it('empty non-terminals come out once at any page size, interleaved sibling names included', async () => {
    const z = await createZone('conv-ent')
    await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'A', name: 'a.b', content: '192.0.2.1' },
        { type: 'A', name: 'b-x', content: '192.0.2.2' },
        { type: 'TXT', name: 'b-x', content: 'two rows at one name' },
        { type: 'A', name: 'c.b', content: '192.0.2.3' },
        { type: 'A', name: 'd.e.f', content: '192.0.2.4' },
        { type: 'A', name: 'f', content: '192.0.2.5' },
        { type: 'A', name: 'g.f-', content: '192.0.2.6' },
      ],
    })
    await settle(z.id)
    for (const pageRows of [1, 2, 3, 1000]) {
      const report = await checkConvergence(env, z.id, undefined, { pageRows })
      expect([pageRows, report.differences]).toEqual([pageRows, []])
    }
    // `e.f` stops being a non-terminal when its only descendant goes (behind the builder's back).
    await env.DB.prepare('DELETE FROM dns_records WHERE zone_id = ?1 AND name = ?2')
      .bind(z.id, `d.e.f.${z.name}`)
      .run()
    const report = await checkConvergence(env, z.id, undefined, { pageRows: 1 })
    const names = (texts: (string | undefined)[]) =>
      texts.flatMap((t) =>
        (t ?? '')
          .split('\n')
          .filter((l) => l.includes('\t'))
          .map((l) => l.split('\t')[0])
      )
    expect(names(report.differences.map((d) => d.actual)).sort()).toEqual(
      expect.arrayContaining(['d.e.f', 'e.f'])
    )
    expect(names(report.differences.map((d) => d.expected))).not.toContain('e.f')
    expect(names(report.differences.map((d) => d.expected))).not.toContain('d.e.f')
    expect(report.differences.every((d) => d.kind === 'different')).toBe(true)
  })
})
