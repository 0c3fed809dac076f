import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'
import { snapshotZone } from './db-snapshot.ts'

async function bigAccountZone(limit: number): Promise<{ id: string; name: string }> {
  const acct = (await api('POST', '/accounts', { name: `big-${limit}` })).body.result
  const set = await api('PUT', `/accounts/${acct.id}`, {
    settings: { max_dns_batch_changes: limit },
  })
  expect(set.body.result.settings.max_dns_batch_changes).toBe(limit)
  const name = `scale-${Date.now().toString(36)}.example`
  const zone = (await api('POST', '/zones', { name, account: { id: acct.id } })).body.result
  return { id: zone.id, name }
}

function a(i: number): { type: string; name: string; content: string } {
  return { type: 'A', name: `h${i}`, content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }
}

describe('batch at scale', () => {
  it('applies 50,000 creates (the most an account may be allowed) in one atomic call', async () => {
    const z = await bigAccountZone(50_000)
    const posts = Array.from({ length: 50_000 }, (_, i) => a(i))
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })
    expect(res.status).toBe(200)
    expect(res.body.result.posts).toHaveLength(50_000)
    const n = await env.DB.prepare('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1')
      .bind(z.id)
      .first<{ n: number }>('n')
    expect(n).toBe(50_000)
    const log = await env.DB.prepare('SELECT count(*) AS n FROM change_log WHERE zone_id = ?1')
      .bind(z.id)
      .first<{ n: number }>('n')
    expect(log).toBe(50_001)

    // A 50,000-change mixed batch on the now-full zone, whose last item fails: nothing changes.
    const ids: string[] = res.body.result.posts.map((r: any) => r.id)
    const before = await snapshotZone(z.id)
    const mixed = {
      deletes: ids.slice(0, 15_000).map((id) => ({ id })),
      patches: ids
        .slice(15_000, 30_000)
        .map((id, i) => ({ id, content: `172.16.${(i >> 8) & 255}.${i & 255}` })),
      posts: Array.from({ length: 20_000 }, (_, i) => a(200_000 + i)),
    }
    mixed.posts[19_999] = { type: 'A', name: 'broken', content: '300.0.0.1' }
    const failed = await api('POST', `/zones/${z.id}/dns_records/batch`, mixed)
    expectError(failed, 400, 9005)
    expect(failed.body.errors[0]!.source?.pointer).toBe('/posts/19999')
    expect(await snapshotZone(z.id)).toBe(before)

    mixed.posts[19_999] = a(299_999)
    const okRes = await api('POST', `/zones/${z.id}/dns_records/batch`, mixed)
    expect(okRes.status).toBe(200)
    const after = await env.DB.prepare('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1')
      .bind(z.id)
      .first<{ n: number }>('n')
    expect(after).toBe(55_000)
  }, 120_000)

  it('enforces a per-account limit and names it', async () => {
    const z = await bigAccountZone(10)
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: Array.from({ length: 11 }, (_, i) => a(i)),
    })
    expectError(res, 400, 81063)
    expect(res.body.errors[0]!.message).toContain('limit for this account is 10')
  })
})
