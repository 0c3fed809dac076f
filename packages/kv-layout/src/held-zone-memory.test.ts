/**
 * What a held zone costs the view: a small zone's only bucket is kept inline and charged with the
 * zone, a zone's map of buckets is charged, and the entry keeps its times and flags exactly.
 */
import { describe, expect, it } from 'vitest'
import { INLINE_OVERHEAD } from './bucket-cache.ts'
import { HELD_ZONE_BYTES } from './held-head.ts'
import { zoneImage } from './image.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import type { NodeData, ZoneMeta } from './types.ts'
import { ZoneEntry } from './zone-entry.ts'

function meta(i: number): ZoneMeta {
  const name = `z${i}.small.example`
  return {
    v: 1,
    id: `b${i.toString(16).padStart(31, '0')}`,
    name,
    serial: 1,
    soa: {
      mname: 'ns1.example',
      rname: 'dns.example',
      refresh: 7200,
      retry: 3600,
      expire: 1209600,
      minimum: 300,
      ttl: 3600,
    },
    ns: ['ns1.example', 'ns2.example'],
    proxy: { ipv4: [], ipv6: [] },
    apex: { v: 1, sets: {} },
  }
}

const a = (ip: string): NodeData => ({ v: 1, sets: { A: { ttl: 300, rdata: [ip] } } })

/** Zone i: `www` and `r1` … under one versioned bucket (or `buckets`), as a platform's small zones. */
function putZone(kv: FakeKv, i: number, buckets = 1, names = 3): void {
  const m = meta(i)
  const nodes = Array.from(
    { length: names },
    (_, j) => [`${j === 0 ? 'www' : `r${j}`}.${m.name}`, a(`10.0.${i & 255}.${j}`)] as const
  )
  kv.putAll(zoneImage(m, nodes, { buckets, versioned: true }))
}

function bucketText(kv: FakeKv, zone: string): string {
  const texts = [...kv.data].filter(([k]) => k.startsWith(`b:${zone}:`)).map(([, v]) => v)
  expect(texts).toHaveLength(1)
  return texts[0]!
}

describe('a held zone and its bucket', () => {
  it('keeps a small zone’s only bucket with the zone, charged as its text plus a string header', async () => {
    const kv = new FakeKv()
    putZone(kv, 0)
    putZone(kv, 1)
    const view = new KvZoneView(kv, { now: () => 0 })
    // The first zone also pays for the metadata parts the others share.
    await view.lookup('z0.small.example')
    const first = view.snapshot().cacheBytes
    await view.lookup('z1.small.example')
    const zoneOnly = view.snapshot().cacheBytes
    expect(zoneOnly - first).toBe(HELD_ZONE_BYTES)
    await view.lookup('www.z1.small.example')
    const text = bucketText(kv, 'z1.small.example')
    expect(view.snapshot().cacheBytes - zoneOnly).toBe(text.length + INLINE_OVERHEAD)
    // Held with the zone, outside the bucket clock.
    expect(view.snapshot().cachedBuckets).toBe(0)
    const calls = kv.calls
    expect((await view.lookup('r2.z1.small.example'))?.nodes.has('r2.z1.small.example')).toBe(true)
    expect(kv.calls).toBe(calls)
    // Forgetting the zone releases its bucket's bytes too.
    view.clearCache()
    expect(view.snapshot().cacheBytes).toBe(0)
  })

  it('counts inline buckets against the zones’ cap: fewer zones fit once their buckets are held', async () => {
    const kv = new FakeKv()
    for (let i = 0; i < 60; i++) putZone(kv, i)
    const text = bucketText(kv, 'z0.small.example')
    const cap = 20 * (HELD_ZONE_BYTES + text.length + INLINE_OVERHEAD)
    const view = new KvZoneView(kv, { now: () => 0, zoneCacheBytes: cap })
    for (let i = 0; i < 60; i++) await view.lookup(`www.z${i}.small.example`)
    const { zones, cacheBytes } = view.snapshot()
    expect(zones).toBeLessThanOrEqual(20)
    expect(zones).toBeGreaterThan(15)
    expect(cacheBytes).toBeLessThanOrEqual(cap)
  })

  it('moves the inline bucket into the bucket cache when the zone needs a second one', async () => {
    const kv = new FakeKv()
    putZone(kv, 0, 16, 100)
    const view = new KvZoneView(kv, { now: () => 0 })
    await view.lookup('z0.small.example')
    const zoneOnly = view.snapshot().cacheBytes
    for (let j = 1; j < 100; j++) await view.lookup(`r${j}.z0.small.example`)
    const all = view.snapshot()
    const texts = [...kv.data]
      .filter(([k]) => k.startsWith('b:z0.small.example:'))
      .map(([, v]) => v)
    // Every bucket is kept, in the clock: each its text and bookkeeping, and the zone's map of them.
    expect(all.cachedBuckets).toBe(texts.length)
    const kept = texts.reduce((sum, t) => sum + t.length + 160, 0)
    expect(all.cacheBytes - zoneOnly).toBe(kept + 192)
    const calls = kv.calls
    for (let j = 1; j < 100; j++) await view.lookup(`r${j}.z0.small.example`)
    expect(kv.calls).toBe(calls)
    // What moved out of the zone's charge is released once, from the bucket cache.
    view.clearCache()
    expect(view.snapshot().cacheBytes).toBe(0)
  })
})

describe('a zone entry', () => {
  const head = { n: 1, seq: 0, meta: meta(0), overlay: new Map(), changed: [] }

  it('keeps its confirmation time exactly, whole or fractional, small or large', () => {
    for (const t of [
      0,
      1,
      1_764_000_000_000,
      1_764_000_000_000 + 2 ** 31,
      -5,
      0.1,
      1e15 + 0.5,
      -(2 ** 53) + 1,
      2 ** 53 - 9,
    ]) {
      const entry = new ZoneEntry('z0.small.example', head, t, 1, 1)
      expect(entry.confirmedAt).toBe(t)
      entry.confirmedAt = t + 0.25
      expect(entry.confirmedAt).toBe(t + 0.25)
      entry.confirmedAt = Math.round(t) + 7
      expect(entry.confirmedAt).toBe(Math.round(t) + 7)
    }
  })

  it('keeps its flags and inline bucket index apart', () => {
    const entry = new ZoneEntry('z0.small.example', head, 0, 1, 1)
    expect([entry.gone, entry.used, entry.inlineIndex]).toEqual([false, false, 0])
    entry.inlineIndex = 4095
    entry.used = true
    expect([entry.gone, entry.used, entry.inlineIndex]).toEqual([false, true, 4095])
    entry.gone = true
    entry.used = false
    expect([entry.gone, entry.used, entry.inlineIndex]).toEqual([true, false, 4095])
    entry.confirmedAt = 0.5
    entry.inlineIndex = 3
    expect([entry.gone, entry.used, entry.inlineIndex, entry.confirmedAt]).toEqual([
      true,
      false,
      3,
      0.5,
    ])
    expect(entry.head).toBe(entry)
    expect(entry.head.changed).toEqual([])
  })
})
