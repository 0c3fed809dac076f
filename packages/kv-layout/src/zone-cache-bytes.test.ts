/**
 * The isolate's zone cache is bounded in bytes, not in zones: many small zones are all kept when
 * they fit their share of the cache, and a small share keeps only what fits (the oldest go first).
 */
import { describe, expect, it } from 'vitest'
import { zoneImage } from './image.ts'
import { HELD_ZONE_BYTES } from './held-head.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { DEFAULT_CACHE_BYTES } from './zone-view-options.ts'
import { FakeKv } from './test-fake-kv.ts'
import type { NodeData, ZoneMeta } from './types.ts'

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
  it('keeps 100,000 platform-shaped small zones, each with the bucket a name needs, with the default 64 MiB cache', async () => {
    // The held zones are bounded in bytes, each zone charged its own bytes: the default cache keeps
    // 100,000 such zones exactly when a sixteenth of it keeps a sixteenth of them (a fixed cost, if
    // any, weighs more in the smaller cache, so the scaled check is the stricter one).
    expect(DEFAULT_CACHE_BYTES).toBe(64 * 1024 * 1024)
    const scale = 16
    const n = 100_000 / scale
    const cacheBytes = DEFAULT_CACHE_BYTES / scale
    // Numbered from 100,000: every name is as long as the longest of the full-size set's.
    const first = 100_000
    const kv = new FakeKv()
    for (let i = first; i < first + n; i++) {
      const m = meta(i)
      m.ns = ['ns1.example', 'ns2.example']
      m.apex = { v: 1, sets: {} }
      // Up to eight A records under one versioned bucket, as a platform's small zones.
      const nodes = Array.from({ length: 1 + ((i * 7919) % 8) }, (_, j) => [
        `${j === 0 ? 'www' : `r${j}`}.${m.name}`,
        { v: 1, sets: { A: { ttl: 300, rdata: [`10.${(i >> 8) & 255}.${i & 255}.${j}`] } } },
      ])
      kv.putAll(zoneImage(m, nodes as [string, NodeData][], { buckets: 1, versioned: true }))
    }
    const view = new KvZoneView(kv, { now: () => 0, cacheBytes })
    for (let i = first; i < first + n; i++) await view.lookup(`www.z${i}.many.example`)
    expect(view.snapshot().zones).toBe(n)
    // Every zone and its bucket are held: asked again, none is read from KV.
    const before = view.stats.kvCalls
    for (let i = first; i < first + n; i += 61) {
      const found = await view.lookup(`www.z${i}.many.example`)
      expect(found?.nodes.has(`www.z${i}.many.example`)).toBe(true)
    }
    expect(view.stats.kvCalls).toBe(before)
    expect(view.snapshot().cacheBytes).toBeLessThanOrEqual(cacheBytes)
  })

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
    // Each zone entry is charged HELD_ZONE_BYTES when it shares its metadata.
    expect(view.snapshot().zones).toBeLessThanOrEqual(Math.floor((20 * 1024) / HELD_ZONE_BYTES))
    expect(view.snapshot().zones).toBeGreaterThan(20)
    const before = view.stats.kvCalls
    await view.lookup('z399.many.example') // the newest is held
    expect(view.stats.kvCalls).toBe(before)
    await view.lookup('z0.many.example') // the oldest was forgotten: read again
    expect(view.stats.kvCalls).toBeGreaterThan(before)
  })
})
