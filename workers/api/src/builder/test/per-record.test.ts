/**
 * @module Per-record builds: renames, deletes, empty non-terminals, apex and settings changes,
 * cost proportional to the touched names, the propagation endpoint and zone deletion.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  bucketKey,
  bucketOf,
  decodeHead,
  headKey,
  headKeys,
  headSlot,
  headVersionKey,
} from '@edgedns/kv-layout'
import {
  api,
  builder,
  converge,
  countingKv,
  createZone,
  kvMeta,
  kvNames,
  kvNode,
  newCounts,
  post,
  settle,
  tweak,
} from './helpers.ts'

describe('per-record builds', () => {
  it('builds a new zone with a full build: meta key, cursor at the creation sequence', async () => {
    const z = await createZone('pr')
    const status = await settle(z.id)
    expect(status.cursor).toBe(1)
    expect(status.lastFullBuildAt).not.toBeNull()
    const meta = await kvMeta(z.name)
    expect(meta).toMatchObject({
      v: 1,
      id: z.id,
      name: z.name,
      ns: ['ns1.edgedns.dev', 'ns2.edgedns.dev'],
    })
    expect(meta!.apex.sets.NS).toEqual({
      ttl: 86400,
      rdata: ['ns1.edgedns.dev.', 'ns2.edgedns.dev.'],
    })
    expect(await kvNames(z.name)).toEqual([])
  })

  it('writes presentation rdata, automatic TTL and the proxied flag', async () => {
    const z = await createZone('pr')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1', proxied: true })
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.2', ttl: 120 })
    await post(z.id, {
      type: 'MX',
      name: 'www',
      content: 'Mail.Example.net',
      priority: 10,
      ttl: 600,
    })
    await settle(z.id)
    expect(await kvNode(z.name, `www.${z.name}`)).toEqual({
      v: 1,
      sets: {
        A: { ttl: 120, rdata: ['192.0.2.1', '192.0.2.2'], proxied: true },
        MX: { ttl: 600, rdata: ['10 mail.example.net.'] },
      },
    })
  })

  it('a rename leaves no stale key at the old name', async () => {
    const z = await createZone('pr')
    const rec = await post(z.id, { type: 'TXT', name: 'old', content: 'hello' })
    await settle(z.id)
    expect(await kvNames(z.name)).toEqual([`old.${z.name}`])
    const res = await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { name: 'new' })
    expect(res.status).toBe(200)
    await settle(z.id)
    expect(await kvNames(z.name)).toEqual([`new.${z.name}`])
    expect(await kvNode(z.name, `old.${z.name}`)).toBeNull()
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('deleting the last record at a name removes its key; other types keep it', async () => {
    const z = await createZone('pr')
    const a = await post(z.id, { type: 'A', name: 'host', content: '192.0.2.1' })
    const txt = await post(z.id, { type: 'TXT', name: 'host', content: 'x' })
    await settle(z.id)
    await api('DELETE', `/zones/${z.id}/dns_records/${a.id}`)
    await settle(z.id)
    expect(Object.keys((await kvNode(z.name, `host.${z.name}`))!.sets)).toEqual(['TXT'])
    await api('DELETE', `/zones/${z.id}/dns_records/${txt.id}`)
    await settle(z.id)
    expect(await kvNode(z.name, `host.${z.name}`)).toBeNull()
    expect(await kvNames(z.name)).toEqual([])
  })

  it('maintains empty non-terminals: created with the first descendant, gone with the last', async () => {
    const z = await createZone('pr')
    const deep = await post(z.id, { type: 'A', name: 'a.b.c', content: '192.0.2.1' })
    const other = await post(z.id, { type: 'A', name: 'x.c', content: '192.0.2.2' })
    await settle(z.id)
    expect(await kvNames(z.name)).toEqual([
      `a.b.c.${z.name}`,
      `b.c.${z.name}`,
      `c.${z.name}`,
      `x.c.${z.name}`,
    ])
    expect(await kvNode(z.name, `b.c.${z.name}`)).toEqual({ v: 1, sets: {} })
    await api('DELETE', `/zones/${z.id}/dns_records/${deep.id}`)
    await settle(z.id)
    expect(await kvNames(z.name)).toEqual([`c.${z.name}`, `x.c.${z.name}`])
    await api('PATCH', `/zones/${z.id}/dns_records/${other.id}`, { name: 'c' })
    await settle(z.id)
    expect(await kvNames(z.name)).toEqual([`c.${z.name}`])
    expect(Object.keys((await kvNode(z.name, `c.${z.name}`))!.sets)).toEqual(['A'])
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('apex records and zone settings write one head (slot and versioned key) and the zone key, no bucket', async () => {
    const z = await createZone('pr')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const counts = newCounts()
    await tweak(z.id, (b) => (b.io = { ...b.io, kv: countingKv(b.io.kv, counts) }))
    await post(z.id, { type: 'MX', name: '@', content: 'mx.example.net', priority: 5 })
    await settle(z.id)
    expect(counts.puts.filter((k) => !k.startsWith(`h:${z.name}:`))).toEqual([`z:${z.name}`])
    const n = (await builder(z.id).status()).head.n
    expect(counts.puts.filter((k) => k.startsWith(`h:${z.name}:`)).sort()).toEqual(
      [headKey(z.name, headSlot(n)), headVersionKey(z.name, z.id, n)].sort()
    )
    expect((await kvMeta(z.name))!.apex.sets.MX).toEqual({ ttl: 300, rdata: ['5 mx.example.net.'] })

    counts.puts.length = 0
    const res = await api('PATCH', `/zones/${z.id}/dns_settings`, {
      soa: { min_ttl: 120 },
      proxy_addresses: { ipv4: ['203.0.113.7'] },
    })
    expect(res.status).toBe(200)
    await settle(z.id)
    expect(counts.puts.filter((k) => !k.startsWith(`h:${z.name}:`))).toEqual([`z:${z.name}`])
    const meta = await kvMeta(z.name)
    expect(meta!.soa.minimum).toBe(120)
    expect(meta!.proxy.ipv4).toEqual(['203.0.113.7'])
    expect(counts.deletes).toEqual([])
  })

  it('a one-record change costs KV writes for the touched names only, whatever the zone size', async () => {
    const z = await createZone('pr')
    const posts = Array.from({ length: 300 }, (_, i) => ({
      type: 'A',
      name: `h${i}.group${i % 3}`,
      content: '192.0.2.1',
    }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    await settle(z.id)
    expect((await kvNames(z.name)).length).toBe(303)
    const counts = newCounts()
    await tweak(z.id, (b) => (b.io = { ...b.io, kv: countingKv(b.io.kv, counts) }))
    await post(z.id, { type: 'A', name: 'h1000.group1', content: '192.0.2.9' })
    await settle(z.id)
    // One head (slot and versioned key) makes the change visible; then a new version of the new
    // name's bucket is written, at the next head's counter, and the bucket of its unchanged
    // empty-non-terminal parent is not (when it is another bucket).
    const b = (await kvMeta(z.name))!.layout!.buckets
    const own = bucketOf(`h1000.group1.${z.name}`, b)
    const n = (await builder(z.id).status()).head.n
    expect(counts.puts.filter((k) => k.startsWith(`h:${z.name}:`))).toHaveLength(2)
    expect(counts.puts.filter((k) => !k.startsWith(`h:${z.name}:`))).toEqual([
      bucketKey(z.name, b, own, { id: z.id, v: n + 1 }),
    ])
    expect(counts.lists).toBe(0)
    const status = await builder(z.id).status()
    expect(status.lastPass).toMatchObject({ kind: 'per-record', changes: 1, names: 2 })
  })

  it('reports propagation through the API', async () => {
    const z = await createZone('pr')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const res = await api('GET', `/zones/${z.id}/propagation`)
    expect(res.status).toBe(200)
    expect(res.body.result).toMatchObject({
      committed_seq: 2,
      built_seq: 2,
      lag_ms: 0,
      last_error: null,
    })
    expect(typeof res.body.result.last_full_build).toBe('string')
    const check = await api('GET', `/zones/${z.id}/propagation/check`)
    expect(check.body.result).toMatchObject({
      converged: true,
      difference_count: 0,
      expected_keys: 17, // 16 buckets (empty ones are written too) and the zone key
      actual_keys: 17,
    })
  })

  it('the newest head serves the serial of the change it built, apex or not', async () => {
    const z = await createZone('pr')
    await settle(z.id)
    const servedSerial = async (): Promise<number> => {
      const slots = await Promise.all(headKeys(z.name).map((k) => env.ZONES_KV.get(k, 'text')))
      const heads = slots.flatMap((t) => (t === null ? [] : [decodeHead(t)]))
      return heads.reduce((a, b) => (b.n > a.n ? b : a)).meta.serial
    }
    const storedSerial = async (): Promise<number> =>
      (await env.DB.prepare('SELECT serial FROM zones WHERE id = ?1')
        .bind(z.id)
        .first<{ serial: number }>())!.serial
    for (const body of [
      { type: 'A', name: 'www', content: '192.0.2.1' },
      { type: 'TXT', name: 'deep.below', content: 'x' },
      { type: 'TXT', name: '@', content: 'apex' },
      { type: 'A', name: 'www', content: '192.0.2.2' },
    ]) {
      const before = await storedSerial()
      await post(z.id, body)
      await settle(z.id)
      const after = await storedSerial()
      expect(after).not.toBe(before)
      expect(await servedSerial()).toBe(after)
    }
  })

  it('a pass that leaves changes for the next keeps the serial its head had', async () => {
    const z = await createZone('pr')
    const seed = Array.from({ length: 20 }, (_, i) => ({
      type: 'A',
      name: `seed${i}`,
      content: '192.0.2.1',
    }))
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: seed })
    await settle(z.id)
    const serialOf = async (): Promise<number> =>
      (await env.DB.prepare('SELECT serial FROM zones WHERE id = ?1')
        .bind(z.id)
        .first<{ serial: number }>())!.serial
    const before = await serialOf()
    const heads: string[] = []
    // Two names a pass: the apex change and two names go first, the third name to a second pass.
    await tweak(z.id, (b) => {
      const kv = b.io.kv
      const capture = {
        get: kv.get.bind(kv),
        getWithMetadata: kv.getWithMetadata.bind(kv),
        list: kv.list.bind(kv),
        delete: kv.delete.bind(kv),
        put: async (key: string, value: string) => {
          if (key.startsWith('h:')) heads.push(value)
          return kv.put(key, value)
        },
      } as unknown as KVNamespace
      b.io = { ...b.io, kv: capture }
      b.limits = { ...b.limits, passNames: 2 }
    })
    await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'TXT', name: '@', content: 'partial-pass' },
        ...['a1', 'a2', 'a3'].map((name) => ({ type: 'A', name, content: '192.0.2.9' })),
      ],
    })
    await settle(z.id)
    const after = await serialOf()
    expect(after).not.toBe(before)
    const written = heads.map((h) => decodeHead(h))
    const withApex = written.filter((h) => h.meta.apex.sets.TXT?.rdata.includes('"partial-pass"'))
    expect(withApex.length).toBeGreaterThan(1)
    // The first pass built the apex change but not a3: it serves the earlier serial.
    expect(withApex[0]!.meta.serial).toBe(before)
    expect(written.at(-1)!.meta.serial).toBe(after)
  })

  it('deleting a zone purges every key and records the build', async () => {
    const z = await createZone('pr')
    await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [
        { type: 'A', name: 'a.deep', content: '192.0.2.1' },
        { type: 'TXT', name: '@', content: 'apex' },
      ],
    })
    await settle(z.id)
    expect((await kvNames(z.name)).length).toBe(2)
    expect((await api('DELETE', `/zones/${z.id}`)).status).toBe(200)
    const status = await settle(z.id)
    expect(status.deleted).toBe(true)
    expect(await kvNames(z.name)).toEqual([])
    expect(await kvMeta(z.name)).toBeNull()
    const row = await env.DB.prepare('SELECT built_seq FROM build_state WHERE zone_id = ?1')
      .bind(z.id)
      .first<{ built_seq: number }>()
    expect(row!.built_seq).toBe(4)
  })
})
