/**
 * @module The propagation sweep works from the `zones_behind` list: its cost follows the zones
 * behind, not the zones hosted; every commit path lists a zone in its own transaction; the
 * builder takes it off once built; a lost clearing or a failing builder neither leaks nor starves.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { applyBatch } from '../../batch/apply.ts'
import { sweep, type SweepEnv } from '../sweep.ts'
import { DEFAULT_ACCOUNT } from '../../../../../test/api/helpers.ts'
import { api, createZone, settle } from './helpers.ts'

/** A builder namespace that records notifications instead of building. */
function recordingBuilders(): { env: SweepEnv; notified: string[] } {
  const notified: string[] = []
  const namespace = {
    idFromName: (name: string) => name,
    get: (id: string) => ({
      notify: async (zoneId: string) => {
        expect(zoneId).toBe(id)
        notified.push(zoneId)
      },
    }),
  }
  return { env: { DB: env.DB, ZONE_BUILDER: namespace } as unknown as SweepEnv, notified }
}

/** D1 with a count of the rows its statements read (D1's own `rows_read`). */
function countingDb(db: D1Database): { db: D1Database; rowsRead: () => number } {
  let rows = 0
  const add = (r: D1Result) => (rows += r.meta.rows_read ?? 0)
  const wrap = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, prop) {
        if (prop === 'bind') return (...args: unknown[]) => wrap(target.bind(...args))
        if (prop === 'all' || prop === 'run')
          return async () => {
            const r = await (target[prop] as () => Promise<D1Result>).call(target)
            add(r)
            return r
          }
        const v = Reflect.get(target, prop)
        return typeof v === 'function' ? v.bind(target) : v
      },
    })
  const counted = new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => wrap(target.prepare(sql))
      if (prop === 'batch')
        return async (stmts: D1PreparedStatement[]) => {
          const rs = await target.batch(stmts)
          rs.forEach(add)
          return rs
        }
      const v = Reflect.get(target, prop)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return { db: counted, rowsRead: () => rows }
}

const behind = async (zoneId: string) =>
  env.DB.prepare('SELECT seq FROM zones_behind WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ seq: number }>()

/** `n` built zones written straight into D1 (named `prefix-i.many.example`), as many builders would leave them. */
async function seedBuiltZones(prefix: string, n: number): Promise<void> {
  await env.DB.batch([
    env.DB.prepare(
      `WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < ?2)
       INSERT INTO zones (id, account_id, name, name_rev, name_servers, soa_mname, soa_rname, serial, change_seq, created_on, modified_on)
       SELECT ?1 || '-' || n, ?3, ?1 || '-' || n || '.many.example', 'example.many.' || ?1 || '-' || n,
              '[]', 'ns1.example', 'dns.example', 1, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM i`
    ).bind(prefix, n, DEFAULT_ACCOUNT),
    env.DB.prepare(
      `INSERT INTO build_state (zone_id, zone_name, built_seq)
       SELECT id, name, change_seq FROM zones WHERE id LIKE ?1 || '-%'`
    ).bind(prefix),
    // What each builder's report does once built.
    env.DB.prepare(
      `DELETE FROM zones_behind WHERE zone_id IN (SELECT zone_id FROM build_state WHERE zone_id LIKE ?1 || '-%')`
    ).bind(prefix),
  ])
}

describe('the propagation sweep', () => {
  it(
    'with 100 zones behind among 20,000 notifies exactly those 100 and reads rows in proportion to them',
    { timeout: 60_000 },
    async () => {
      await seedBuiltZones('quiet', 20_000)
      // 100 zones commit a change (the version guard moves change_seq; nobody notifies their builder).
      await env.DB.prepare(
        `UPDATE zones SET change_seq = change_seq + 1, version = version + 1
          WHERE id IN (SELECT 'quiet-' || (value * 200) FROM json_each(?1))`
      )
        .bind(JSON.stringify(Array.from({ length: 100 }, (_, i) => i + 1)))
        .run()
      const builders = recordingBuilders()
      const counted = countingDb(env.DB)
      const result = await sweep({ ...builders.env, DB: counted.db })
      const expected = Array.from({ length: 100 }, (_, i) => `quiet-${(i + 1) * 200}`)
      expect(builders.notified.filter((z) => z.startsWith('quiet-')).sort()).toEqual(
        expected.sort()
      )
      expect(result.failed).toBe(0)
      const others = builders.notified.length - 100
      // A scan of the zones would read 20,000 rows; the list costs a few per zone behind.
      expect(counted.rowsRead()).toBeLessThan(10 * (100 + others) + 50)
      expect(counted.rowsRead()).toBeGreaterThanOrEqual(100)
      // Their builders were never real: take the seeded zones away from the tests that follow.
      await env.DB.batch(
        ['zones_behind', 'build_state'].map((t) =>
          env.DB.prepare(`DELETE FROM ${t} WHERE zone_id LIKE 'quiet-%'`)
        )
      )
      await env.DB.prepare(`DELETE FROM zones WHERE id LIKE 'quiet-%'`).run()
    }
  )

  it('finds its work list through an index, with no scan of zones and no sort', async () => {
    const { results } = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT w.zone_id, w.seq, coalesce(b.built_seq, 0) AS built
         FROM zones_behind w LEFT JOIN build_state b ON b.zone_id = w.zone_id
        ORDER BY w.notified_at LIMIT 1000`
    ).all<{ detail: string }>()
    const plan = results.map((r) => r.detail).join('\n')
    expect(plan).toContain('zones_behind_notified')
    expect(plan).not.toMatch(/TEMP B-TREE/)
    expect(plan).not.toMatch(/SCAN (z|zones)\b/)
  })

  it(
    'lists a zone in the same transaction as every kind of commit, and only then',
    { timeout: 30_000 },
    async () => {
      const z = await createZone('listed')
      expect((await behind(z.id))?.seq).toBe(1)
      await settle(z.id)
      expect(await behind(z.id)).toBeNull()

      // A record batch whose notification is lost.
      await applyBatch(
        env.DB,
        { zoneId: z.id, zoneName: z.name, tokenId: 'test' },
        { posts: [{ type: 'A', name: 'lost', content: '192.0.2.7' }] } as any,
        false
      )
      const zone = await env.DB.prepare('SELECT change_seq FROM zones WHERE id = ?1')
        .bind(z.id)
        .first<{ change_seq: number }>()
      expect((await behind(z.id))?.seq).toBe(zone!.change_seq)

      // A refused write changes nothing, so it lists nothing new.
      const dup = await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'lost',
        content: '192.0.2.7',
      })
      expect(dup.status).toBe(400)
      expect((await behind(z.id))?.seq).toBe(zone!.change_seq)

      // Zone settings and deletion are commits too.
      await sweep(env)
      await settle(z.id)
      expect(await behind(z.id)).toBeNull()
      expect((await api('PATCH', `/zones/${z.id}/dns_settings`, { ns_ttl: 3600 })).status).toBe(200)
      expect((await behind(z.id))?.seq).toBe(zone!.change_seq + 1)
      expect((await api('DELETE', `/zones/${z.id}`)).status).toBe(200)
      expect((await behind(z.id))?.seq).toBe(zone!.change_seq + 2)
    }
  )

  it(
    'heals a lost notification, and the builder takes the zone off the list once built',
    { timeout: 30_000 },
    async () => {
      const z = await createZone('heal')
      await settle(z.id)
      await applyBatch(
        env.DB,
        { zoneId: z.id, zoneName: z.name, tokenId: 'test' },
        { posts: [{ type: 'A', name: 'healed', content: '192.0.2.8' }] } as any,
        false
      )
      expect(await behind(z.id)).not.toBeNull()
      const result = await sweep(env)
      expect(result.notified).toBeGreaterThanOrEqual(1)
      await settle(z.id)
      expect(await behind(z.id)).toBeNull()
    }
  )

  it('drops a listed zone that is already built instead of notifying it', async () => {
    const z = await createZone('stale')
    await settle(z.id)
    // The builder's clearing was lost: the row is back although build_state is at its sequence.
    await env.DB.prepare(
      'INSERT INTO zones_behind (zone_id, seq) SELECT zone_id, built_seq FROM build_state WHERE zone_id = ?1'
    )
      .bind(z.id)
      .run()
    const builders = recordingBuilders()
    const result = await sweep(builders.env)
    expect(builders.notified).not.toContain(z.id)
    expect(result.cleared).toBeGreaterThanOrEqual(1)
    expect(await behind(z.id)).toBeNull()
  })

  it('takes the least recently notified first, so zones that stay behind do not starve the rest', async () => {
    await env.DB.prepare('DELETE FROM zones_behind').run()
    await env.DB.prepare(
      `INSERT INTO zones_behind (zone_id, seq) VALUES ('stuck-a', 5), ('stuck-b', 5), ('stuck-c', 5)`
    ).run()
    const seen: string[][] = []
    for (let run = 0; run < 3; run++) {
      const builders = recordingBuilders()
      await sweep(builders.env, { limit: 2, now: 1000 + run })
      seen.push(builders.notified.sort())
    }
    expect(new Set(seen.flat())).toEqual(new Set(['stuck-a', 'stuck-b', 'stuck-c']))
    expect(seen.every((s) => s.length === 2)).toBe(true)
  })
})
