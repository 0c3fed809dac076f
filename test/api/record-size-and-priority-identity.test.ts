/**
 * Review findings on record rules: RDATA size, and priority as part of a record's identity.
 */
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone } from './helpers.ts'

describe('review: record size', () => {
  it('rejects a CAA record whose rdata cannot fit in a DNS message (RDLENGTH > 65535)', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'CAA',
      name: 'caa',
      content: `0 issue "${'a'.repeat(70_000)}"`,
    })
    expect(res.status).toBe(400)
  })
})

describe('priority is part of a record identity (MX, SRV, URI)', () => {
  it('imports two MX records that differ only in preference (distinct RRs) instead of dropping one', async () => {
    const z = await createZone()
    const form = new FormData()
    form.append('file', `@ 300 IN MX 10 mail.example.net.\n@ 300 IN MX 20 mail.example.net.\n`)
    const res = await (exports as any).default.fetch(
      `http://localhost/client/v4/zones/${z.id}/dns_records/import`,
      {
        method: 'POST',
        body: form,
        headers: { authorization: 'Bearer dev-token' },
      }
    )
    expect(res.status).toBe(200)
    const list = await api('GET', `/zones/${z.id}/dns_records?type=MX`)
    expect(list.body.result.map((r: any) => r.priority).sort()).toEqual([10, 20])
  })

  it('accepts MX 10 and MX 20 to the same host in one batch, and rejects a second MX 10 as identical', async () => {
    const z = await createZone()
    const mx = (priority: number) => ({
      type: 'MX',
      name: '@',
      content: 'mail.example.net',
      priority,
    })
    const ok = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: [mx(10), mx(20)] })
    expect(ok.status).toBe(200)
    const again = await api('POST', `/zones/${z.id}/dns_records`, mx(10))
    expect(again.status).toBe(400)
    expect(again.body.errors?.[0]?.code).toBe(81058)
    const inBatch = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [mx(30), mx(30)],
    })
    expect(inBatch.status).toBe(400)
    expect(inBatch.body.errors?.[0]?.code).toBe(81058)
    const list = await api('GET', `/zones/${z.id}/dns_records?type=MX`)
    expect(list.body.result.map((r: any) => r.priority).sort()).toEqual([10, 20])
  })

  it('lets a patch move an MX to a free priority but not onto an identical record', async () => {
    const z = await createZone()
    const a = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'MX',
      name: '@',
      content: 'mx.example.net',
      priority: 10,
    })
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'MX',
      name: '@',
      content: 'mx.example.net',
      priority: 20,
    })
    expect(
      (await api('PATCH', `/zones/${z.id}/dns_records/${a.body.result.id}`, { priority: 20 })).body
        .errors?.[0]?.code
    ).toBe(81058)
    expect(
      (await api('PATCH', `/zones/${z.id}/dns_records/${a.body.result.id}`, { priority: 30 }))
        .status
    ).toBe(200)
  })

  it('the database itself refuses a second identical MX (the unique index includes the priority)', async () => {
    const z = await createZone()
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'MX',
      name: '@',
      content: 'mx.example.net',
      priority: 10,
    })
    const row = await env.DB.prepare("SELECT * FROM dns_records WHERE zone_id = ?1 AND type = 'MX'")
      .bind(z.id)
      .first<any>()
    const insert = (id: string, priority: number) =>
      env.DB.prepare(
        'INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, priority, ttl, proxied, tags, settings, created_on, modified_on) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, 0, ?8, ?9, ?10, ?10)'
      )
        .bind(
          id,
          z.id,
          row.name,
          row.name_rev,
          'MX',
          row.content,
          priority,
          '[]',
          '{}',
          row.created_on
        )
        .run()
    await expect(insert('f'.repeat(32), 10)).rejects.toThrow(/UNIQUE/)
    await insert('e'.repeat(32), 20)
  })
})
