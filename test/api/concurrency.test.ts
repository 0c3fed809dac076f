import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone } from './helpers.ts'

describe('concurrent batches on one zone', () => {
  it('serialise: no rule is broken and every accepted batch is fully present', async () => {
    const z = await createZone('race')
    const N = 24
    const batches = Array.from({ length: N }, (_, i) =>
      i % 2 === 0
        ? {
            posts: [
              { type: 'CNAME', name: 'contested', content: `target${i}.example.net` },
              { type: 'TXT', name: `marker${i}`, content: `batch ${i}` },
            ],
          }
        : {
            posts: [
              { type: 'A', name: 'contested', content: `192.0.2.${i}` },
              { type: 'TXT', name: `marker${i}`, content: `batch ${i}` },
            ],
          }
    )
    const results = await Promise.all(
      batches.map((b) => api('POST', `/zones/${z.id}/dns_records/batch`, b))
    )
    const accepted = results.flatMap((r, i) => (r.status === 200 ? [i] : []))
    for (const r of results) {
      if (r.status !== 200) expect([81053, 81054, 81064]).toContain(r.body.errors[0]!.code)
    }
    expect(accepted.length).toBeGreaterThan(0)

    const rows = (
      await env.DB.prepare('SELECT name, type, content FROM dns_records WHERE zone_id = ?1')
        .bind(z.id)
        .all<{ name: string; type: string; content: string }>()
    ).results
    const atContested = rows.filter((r) => r.name === `contested.${z.name}`)
    const cnames = atContested.filter((r) => r.type === 'CNAME')
    // CNAME exclusivity holds: either one CNAME alone, or only A records.
    if (cnames.length > 0) expect(atContested).toHaveLength(1)
    // Every accepted batch is fully present, and no rejected batch left anything behind.
    const markers = new Set(rows.filter((r) => r.type === 'TXT').map((r) => r.name))
    for (let i = 0; i < N; i++)
      expect(markers.has(`marker${i}.${z.name}`)).toBe(accepted.includes(i))
    // The change log is gap-free and matches the committed sequence.
    const seqs = (
      await env.DB.prepare('SELECT seq FROM change_log WHERE zone_id = ?1 ORDER BY seq')
        .bind(z.id)
        .all<{ seq: number }>()
    ).results.map((r) => r.seq)
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1))
    const zone = await env.DB.prepare('SELECT change_seq FROM zones WHERE id = ?1')
      .bind(z.id)
      .first<number>('change_seq')
    expect(zone).toBe(seqs.length)
  })

  it('re-plan a batch that lost the race instead of failing it', async () => {
    const z = await createZone('replan')
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api('POST', `/zones/${z.id}/dns_records/batch`, {
          posts: [{ type: 'A', name: 'multi', content: `198.51.100.${i + 1}` }],
        })
      )
    )
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200))
    const n = await env.DB.prepare('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1')
      .bind(z.id)
      .first<number>('n')
    expect(n).toBe(16)
    const seqs = results
      .map((r) => Number(r.headers.get('x-edgedns-change-seq')))
      .sort((a, b) => a - b)
    expect(seqs).toEqual(Array.from({ length: 16 }, (_, i) => i + 2))
  })

  it('never block batches on different zones', async () => {
    const zones = await Promise.all(Array.from({ length: 6 }, () => createZone('par')))
    const results = await Promise.all(
      zones.map((z) =>
        api('POST', `/zones/${z.id}/dns_records/batch`, {
          posts: [{ type: 'A', name: 'www', content: '192.0.2.1' }],
        })
      )
    )
    expect(results.map((r) => r.status)).toEqual(zones.map(() => 200))
  })
})

describe('audit trail', () => {
  it('lists who changed what, newest first, with before and after', async () => {
    const z = await createZone('audit')
    const a = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'www',
        content: '192.0.2.1',
      })
    ).body.result
    await api('PATCH', `/zones/${z.id}/dns_records/${a.id}`, { content: '192.0.2.2' })
    await api('DELETE', `/zones/${z.id}/dns_records/${a.id}`)
    const res = await api('GET', `/zones/${z.id}/dns_records/audit?per_page=2`)
    expect(res.status).toBe(200)
    expect(res.body.result_info).toMatchObject({ total_count: 3, total_pages: 2 })
    const [del, upd] = res.body.result
    expect(del).toMatchObject({ action: 'delete', record_id: a.id, token_id: 'dev', after: null })
    expect(del.before.content).toBe('192.0.2.2')
    expect(upd).toMatchObject({ action: 'update' })
    expect(upd.before.content).toBe('192.0.2.1')
    expect(upd.after.content).toBe('192.0.2.2')
    const [created] = (await api('GET', `/zones/${z.id}/dns_records/audit?per_page=2&page=2`)).body
      .result
    expect(created).toMatchObject({ action: 'create', before: null })
    expect(created.after.content).toBe('192.0.2.1')
  })

  it('takes the last of a repeated parameter, and refuses a malformed record_id (1002)', async () => {
    const z = await createZone('audit-params')
    const a = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'w',
        content: '192.0.2.1',
      })
    ).body.result
    await api('PATCH', `/zones/${z.id}/dns_records/${a.id}`, { content: '192.0.2.2' })
    const two = await api('GET', `/zones/${z.id}/dns_records/audit?per_page=1&per_page=2`)
    expect(two.body.result_info).toMatchObject({ per_page: 2, count: 2 })
    const mine = await api('GET', `/zones/${z.id}/dns_records/audit?record_id=${a.id}`)
    expect(mine.body.result.map((e: any) => e.action)).toEqual(['update', 'create'])
    for (const id of ['x', a.id.toUpperCase(), `${a.id}0`]) {
      const res = await api('GET', `/zones/${z.id}/dns_records/audit?record_id=${id}`)
      expect(res.status).toBe(400)
      expect(res.body.errors[0]).toEqual({ code: 1002, message: 'Invalid dns record identifier' })
    }
  })

  it('shows the live record as the after-state of its latest change', async () => {
    const z = await createZone('audit-live')
    const a = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'www',
        content: '192.0.2.1',
      })
    ).body.result
    const [entry] = (await api('GET', `/zones/${z.id}/dns_records/audit`)).body.result
    expect(entry.after).toEqual(a)
  })

  it('keeps every field of the record as it was before a batch changed or deleted it', async () => {
    const z = await createZone('audit-images')
    const mx = {
      type: 'MX',
      name: 'mail',
      content: 'mx1.example.net',
      priority: 10,
      ttl: 300,
      comment: 'primary',
      tags: ['team:mail', 'env:prod'],
    }
    const srv = {
      type: 'SRV',
      name: '_sip._tcp',
      data: { priority: 1, weight: 5, port: 5060, target: 'sip.example.net' },
      ttl: 600,
    }
    const a = { type: 'A', name: 'www', content: '192.0.2.1', proxied: true }
    const created = (await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: [mx, srv, a] }))
      .body.result.posts
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      deletes: [{ id: created[1].id }],
      patches: [
        { id: created[0].id, priority: 20, comment: null },
        { id: created[2].id, comment: 'edge' },
      ],
    })
    expect(res.status).toBe(200)
    const entries = (await api('GET', `/zones/${z.id}/dns_records/audit?per_page=50`)).body.result
    const byRecord = new Map(
      entries
        .filter((e: { action: string }) => e.action !== 'create')
        .map((e: { record_id: string }) => [e.record_id, e])
    )
    expect(byRecord.size).toBe(3)
    for (const before of created) expect(byRecord.get(before.id)).toMatchObject({ before })
  })
})
