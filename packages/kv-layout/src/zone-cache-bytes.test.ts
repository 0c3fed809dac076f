/**
 * The isolate's zone cache is bounded in bytes, not in zones: many small zones are all kept when
 * they fit their share of the cache, and a small share keeps only what fits (the oldest go first).
 */
import { describe, expect, it } from 'vitest'
import { zoneImage } from './image.ts'
import { HELD_ZONE_BYTES } from './held-head.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import type { ZoneMeta } from './types.ts'

function meta(i: number): ZoneMeta {
  const name = `z${i}.many.example`
  return {
    v: 1,
    id: String(i).padStart(32, '0'),
    name,
    serial: 1,
    soa: {
      mname: 'ns1.example',
      rname: 'dns.example',
      refresh: 1,
      retry: 1,
      expire: 1,
      minimum: 60,
      ttl: 3600,
    },
    ns: [],
    proxy: { ipv4: [], ipv6: [] },
    apex: { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.1'] } } },
  }
}

function kvWithZones(n: number): FakeKv {
  const kv = new FakeKv()
  for (let i = 0; i < n; i++) kv.putAll(zoneImage(meta(i), [], { buckets: 1 }))
  return kv
}

async function lookUpAll(view: KvZoneView, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const found = await view.lookup(`z${i}.many.example`)
    expect(found?.zone.name).toBe(`z${i}.many.example`)
  }
}

describe('the zone cache bound', () => {
  it('keeps 40,000 small zones sharing their name servers and SOA with the default 64 MiB cache', async () => {
    const kv = kvWithZones(40_000)
    const view = new KvZoneView(kv, { now: () => 0 })
    await lookUpAll(view, 40_000)
    expect(view.snapshot().zones).toBe(40_000)
    // Held zones answer without reading KV again within the revalidation window.
    const before = view.stats.kvCalls
    await view.lookup('z0.many.example')
    await view.lookup('z39999.many.example')
    expect(view.stats.kvCalls).toBe(before)
  }, 60_000)

  it('charges what a zone holds that no other held zone shares', async () => {
    const kv = kvWithZones(2)
    const own = meta(2)
    own.soa = { ...own.soa, mname: 'ns1.z2.many.example', rname: 'hostmaster.z2.many.example' }
    kv.putAll(zoneImage(own, [], { buckets: 1 }))
    const view = new KvZoneView(kv, { now: () => 0 })
    await view.lookup('z0.many.example')
    const first = view.snapshot().cacheBytes
    await view.lookup('z1.many.example')
    const shared = view.snapshot().cacheBytes - first
    await view.lookup('z2.many.example')
    const unshared = view.snapshot().cacheBytes - first - shared
    expect(shared).toBe(HELD_ZONE_BYTES)
    expect(unshared).toBeGreaterThan(HELD_ZONE_BYTES + JSON.stringify(own.soa).length)
  })

  it('keeps only what fits a small byte budget, forgetting the zones held longest and not asked again', async () => {
    const kv = kvWithZones(400)
    const view = new KvZoneView(kv, { now: () => 0, zoneCacheBytes: 20 * 1024 })
    await lookUpAll(view, 400)
    // Each zone entry is charged HELD_ZONE_BYTES (512) when it shares its metadata: about 40 fit.
    expect(view.snapshot().zones).toBeLessThan(50)
    expect(view.snapshot().zones).toBeGreaterThan(20)
    const before = view.stats.kvCalls
    await view.lookup('z399.many.example') // the newest is held
    expect(view.stats.kvCalls).toBe(before)
    await view.lookup('z0.many.example') // the oldest was forgotten: read again
    expect(view.stats.kvCalls).toBeGreaterThan(before)
  })
})
