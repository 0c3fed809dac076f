/**
 * The official `cloudflare` SDK drives the real local stack unchanged; only baseURL differs.
 */
import Cloudflare from 'cloudflare'
import { beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'

const cf = new Cloudflare({
  apiToken: inject('stackToken'),
  baseURL: `${inject('stackBase')}/client/v4`,
  maxRetries: 0,
})
let zone_id = ''
let zoneName = ''

beforeAll(async () => {
  const accounts = await cf.accounts.list()
  const zone = await cf.zones.create({
    account: { id: accounts.result[0]!.id },
    name: `sdk-${Date.now().toString(36)}.example`,
  })
  zone_id = zone.id
  zoneName = zone.name
})

describe('official cloudflare SDK against the local stack', () => {
  it('lists and gets zones', async () => {
    const page = await cf.zones.list({ name: zoneName })
    expect(page.result.map((z) => z.id)).toEqual([zone_id])
    expect((await cf.zones.get({ zone_id })).name).toBe(zoneName)
  })

  it('edits a zone', async () => {
    const z = await cf.zones.edit({ zone_id, paused: true })
    expect(z.paused).toBe(true)
    await cf.zones.edit({ zone_id, paused: false })
  })

  it('creates, gets, edits, updates and deletes a record', async () => {
    const a = await cf.dns.records.create({
      zone_id,
      type: 'A',
      name: `www.${zoneName}`,
      content: '192.0.2.10',
      ttl: 300,
      proxied: false,
      comment: 'demo',
      tags: ['env:test'],
    })
    expect(a).toMatchObject({
      name: `www.${zoneName}`,
      content: '192.0.2.10',
      ttl: 300,
      comment: 'demo',
      tags: ['env:test'],
    })
    expect((await cf.dns.records.get(a.id, { zone_id })).id).toBe(a.id)
    const edited = await cf.dns.records.edit(a.id, { zone_id, content: '192.0.2.11' } as any)
    expect(edited.content).toBe('192.0.2.11')
    expect(edited.comment).toBe('demo')
    const updated = await cf.dns.records.update(a.id, {
      zone_id,
      type: 'A',
      name: `www.${zoneName}`,
      content: '192.0.2.12',
      ttl: 1,
    })
    expect(updated).toMatchObject({ content: '192.0.2.12', comment: null, tags: [] })
    expect(await cf.dns.records.delete(a.id, { zone_id })).toEqual({ id: a.id })
  })

  it('auto-paginates a list over several pages', async () => {
    const posts = Array.from({ length: 25 }, (_, i) => ({
      type: 'A' as const,
      name: `page${i}.${zoneName}`,
      content: `198.51.100.${i + 1}`,
      ttl: 1,
    }))
    await cf.dns.records.batch({ zone_id, posts })
    const seen: string[] = []
    for await (const r of cf.dns.records.list({
      zone_id,
      per_page: 7,
      name: { startswith: 'page' },
    }))
      seen.push(r.name)
    expect(seen).toHaveLength(25)
    expect(new Set(seen).size).toBe(25)
  })

  it('applies a batch atomically and returns every list', async () => {
    const a = await cf.dns.records.create({
      zone_id,
      type: 'A',
      name: `b.${zoneName}`,
      content: '192.0.2.20',
      ttl: 1,
    })
    const b = await cf.dns.records.create({
      zone_id,
      type: 'A',
      name: `c.${zoneName}`,
      content: '192.0.2.21',
      ttl: 1,
    })
    const res = await cf.dns.records.batch({
      zone_id,
      deletes: [{ id: a.id }],
      patches: [{ id: b.id, content: '192.0.2.22' } as any],
      posts: [
        { type: 'TXT', name: `t.${zoneName}`, content: '"hello"', ttl: 1 },
        { type: 'MX', name: zoneName, content: `mx.${zoneName}`, priority: 10, ttl: 3600 },
      ],
    })
    expect(res.deletes?.map((r) => r.id)).toEqual([a.id])
    expect(res.patches?.[0]?.content).toBe('192.0.2.22')
    expect(res.posts?.map((r) => r.type)).toEqual(['TXT', 'MX'])
  })

  it('leaves the zone unchanged when a batch item fails, and reports its code', async () => {
    const before = (await cf.dns.records.list({ zone_id, per_page: 1000 })).result.length
    const err = await cf.dns.records
      .batch({
        zone_id,
        posts: [
          { type: 'A', name: `ok.${zoneName}`, content: '192.0.2.1', ttl: 1 },
          { type: 'A', name: `bad.${zoneName}`, content: 'nope', ttl: 1 },
        ],
      })
      .catch((e) => e)
    expect(err).toBeInstanceOf(Cloudflare.BadRequestError)
    expect(err.errors[0].code).toBe(9005)
    expect((await cf.dns.records.list({ zone_id, per_page: 1000 })).result.length).toBe(before)
  })

  it('surfaces expected errors with their codes and HTTP statuses', async () => {
    const missing = await cf.dns.records.get('0'.repeat(32), { zone_id }).catch((e) => e)
    expect(missing).toBeInstanceOf(Cloudflare.NotFoundError)
    expect(missing.errors[0].code).toBe(81044)
    await cf.dns.records.create({
      zone_id,
      type: 'A',
      name: `dup.${zoneName}`,
      content: '192.0.2.1',
      ttl: 1,
    })
    const dup = await cf.dns.records
      .create({ zone_id, type: 'A', name: `dup.${zoneName}`, content: '192.0.2.1', ttl: 1 })
      .catch((e) => e)
    expect(dup).toBeInstanceOf(Cloudflare.BadRequestError)
    expect(dup.errors[0].code).toBe(81058)
    const cname = await cf.dns.records
      .create({ zone_id, type: 'CNAME', name: `dup.${zoneName}`, content: 'x.example.net', ttl: 1 })
      .catch((e) => e)
    expect(cname.errors[0].code).toBe(81053)
    const bad = new Cloudflare({
      apiToken: 'wrong',
      baseURL: `${inject('stackBase')}/client/v4`,
      maxRetries: 0,
    })
    const denied = await bad.zones.list().catch((e) => e)
    expect(denied).toBeInstanceOf(Cloudflare.PermissionDeniedError)
  })

  it('enables, reads and disables DNSSEC with dns.dnssec', async () => {
    const off = await cf.dns.dnssec.get({ zone_id })
    expect(off.status).toBe('disabled')
    const on = await cf.dns.dnssec.edit({ zone_id, status: 'active' })
    expect(on).toMatchObject({
      algorithm: '13',
      key_type: 'ECDSAP256SHA256',
      flags: 257,
      digest_type: '2',
      digest_algorithm: 'SHA256',
    })
    expect(['pending', 'active']).toContain(on.status)
    expect(on.ds).toBe(`${zoneName}. 3600 IN DS ${on.key_tag} 13 2 ${on.digest}`)
    expect((await cf.dns.dnssec.get({ zone_id })).public_key).toBe(on.public_key)
    expect((await cf.dns.dnssec.edit({ zone_id, status: 'disabled' })).status).toBe(
      'pending-disabled'
    )
    expect(await cf.dns.dnssec.delete({ zone_id })).toBe(zone_id)
    expect((await cf.dns.dnssec.get({ zone_id })).status).toBe('disabled')
  })

  it('deletes the zone', async () => {
    const z = await cf.zones.create({
      account: { id: (await cf.accounts.list()).result[0]!.id },
      name: `gone-${Date.now().toString(36)}.example`,
    })
    expect((await cf.zones.delete({ zone_id: z.id }))?.id).toBe(z.id)
    expect(await cf.zones.get({ zone_id: z.id }).catch((e) => e.status)).toBe(404)
  })
})
