/**
 * What a lookup costs in KV calls and round trips: cold (one bulk get), warm within the
 * revalidation window (none), warm after it (one small read of the zone key and two head slots).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { encodeZoneMeta } from './codec.ts'
import { headKey } from './head.ts'
import { zoneImage } from './image.ts'
import { bucketKey, bucketOf, zoneKey } from './keys.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import { baseMeta } from './test-zone-writer.ts'
import type { NodeData, ZoneMeta } from './types.ts'

function meta(name: string, extra: Partial<ZoneMeta> = {}): ZoneMeta {
  return {
    ...baseMeta(name, name.replace(/\W/g, '').padEnd(32, '0').slice(0, 32)),
    ns: [],
    apex: { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.1'] } } },
    ...extra,
  }
}

const a = (ip: string): NodeData => ({ v: 1, sets: { A: { ttl: 300, rdata: [ip] } } })

const REVALIDATE_MS = 1000

describe('KvZoneView round trips', () => {
  let kv: FakeKv
  let t: number
  let view: KvZoneView

  beforeEach(() => {
    kv = new FakeKv()
    t = 0
    view = new KvZoneView(kv, { now: () => t, revalidateMs: REVALIDATE_MS, absentTtlMs: 5000 })
    kv.putAll(
      zoneImage(
        meta('example.com'),
        Object.entries({
          'www.example.com': a('192.0.2.10'),
          'a.b.example.com': a('192.0.2.11'),
          '*.example.com': a('192.0.2.99'),
        }),
        { buckets: 4096 }
      )
    )
    kv.putAll(
      zoneImage(meta('sub.example.com'), [['x.sub.example.com', a('192.0.2.20')]], { buckets: 16 })
    )
  })

  it('finds an existing name in one bulk call with a cold cache', async () => {
    const r = await view.lookup('WWW.example.com.')
    expect(kv.calls).toBe(1)
    expect(kv.rounds).toBe(1)
    expect(r?.zone.name).toBe('example.com')
    expect(r?.nodes.get('www.example.com')?.sets.A?.rdata).toEqual(['192.0.2.10'])
  })

  it('finds a name three labels below its zone in one round trip with a cold cache', async () => {
    const r = await view.lookup('a.b.c.example.com')
    expect(kv.rounds).toBe(1)
    expect(r?.zone.name).toBe('example.com')
  })

  it('answers a warm name within the revalidation window with no KV call', async () => {
    await view.lookup('www.example.com')
    kv.resetCounts()
    t = REVALIDATE_MS
    const r = await view.lookup('www.example.com')
    expect(kv.calls).toBe(0)
    expect(r?.nodes.get('www.example.com')?.sets.A?.rdata).toEqual(['192.0.2.10'])
    expect(r?.nodes.get('*.example.com')?.sets.A?.rdata).toEqual(['192.0.2.99'])
  })

  it('reads no KV at all for a cached apex', async () => {
    await view.lookup('example.com')
    kv.resetCounts()
    const r = await view.lookup('example.com')
    expect(kv.calls).toBe(0)
    expect(r?.zone.apex.sets.A?.rdata).toEqual(['192.0.2.1'])
    expect(r?.nodes.size).toBe(0)
  })

  it('after the window, revalidates with one call reading the zone key and the next two head slots', async () => {
    await view.lookup('www.example.com')
    kv.resetCounts()
    t = REVALIDATE_MS + 1
    const r = await view.lookup('www.example.com')
    expect(kv.calls).toBe(1)
    expect(kv.keysRead[0]?.sort()).toEqual(
      [headKey('example.com', 2), headKey('example.com', 3), zoneKey('example.com')].sort()
    )
    expect(r?.nodes.has('www.example.com')).toBe(true)
    kv.resetCounts()
    expect((await view.lookup('www.example.com'))?.nodes.has('www.example.com')).toBe(true)
    expect(kv.calls).toBe(0) // confirmed again
  })

  it('concurrent lookups of a stale zone share one revalidation read', async () => {
    await view.lookup('www.example.com')
    kv.resetCounts()
    t = REVALIDATE_MS + 1
    const before = view.snapshot().revalidations
    const rs = await Promise.all([
      view.lookup('www.example.com'),
      view.lookup('example.com'),
      view.lookup('WWW.example.com'),
    ])
    expect(rs.every((r) => r?.zone.name === 'example.com')).toBe(true)
    expect(kv.calls).toBe(1)
    expect(view.snapshot().revalidations - before).toBe(1)
  })

  it("reads only bucket keys of the cached zone's own bucket count for a name not cached yet", async () => {
    await view.lookup('www.example.com')
    kv.resetCounts()
    const r = await view.lookup('a.b.example.com')
    expect(kv.calls).toBe(1)
    const keys = kv.keysRead.flat()
    expect(keys.every((k) => k.startsWith('b:example.com:4096:'))).toBe(true)
    // a.b, its ENT b, and *.b (the wildcard *.example.com's bucket is cached)
    expect(keys.sort()).toEqual(
      [
        ...new Set(
          ['a.b.example.com', 'b.example.com', '*.b.example.com'].map((n) =>
            bucketKey('example.com', 4096, bucketOf(n, 4096))
          )
        ),
      ].sort()
    )
    expect([...(r?.nodes.keys() ?? [])].sort()).toEqual([
      '*.example.com',
      'a.b.example.com',
      'b.example.com',
    ])
  })

  it('under a cached zone that lists no subzones, reads no zone key for longer suffixes', async () => {
    await view.lookup('www.example.com')
    kv.resetCounts()
    await view.lookup('q.r.s.example.com')
    expect(kv.keysRead.flat().filter((k) => !k.startsWith('b:'))).toEqual([])
  })

  it('under a cached zone that lists a subzone, looks the name up in the subzone', async () => {
    kv.putAll(
      zoneImage(
        meta('example.com', { subzones: ['sub.example.com'] }),
        [['www.example.com', a('192.0.2.10')]],
        { buckets: 16 }
      )
    )
    await view.lookup('www.example.com')
    kv.resetCounts()
    const r = await view.lookup('x.sub.example.com')
    expect(r?.zone.name).toBe('sub.example.com')
    expect(r?.nodes.get('x.sub.example.com')?.sets.A?.rdata).toEqual(['192.0.2.20'])
    expect(kv.calls).toBe(1)
    const zoneKeys = kv.keysRead.flat().filter((k) => k.startsWith('z:'))
    expect(zoneKeys).toEqual([zoneKey('sub.example.com')])
    kv.resetCounts()
    expect((await view.lookup('y.sub.example.com'))?.zone.name).toBe('sub.example.com')
    expect(kv.keysRead.flat().filter((k) => !k.startsWith('b:'))).toEqual([])
  })

  it('picks the longest existing zone when zones nest', async () => {
    const r = await view.lookup('x.sub.example.com')
    expect(kv.rounds).toBe(1)
    expect(r?.zone.name).toBe('sub.example.com')
    expect(r?.nodes.has('x.sub.example.com')).toBe(true)
  })

  it('restricts the zone search with `within`', async () => {
    const r = await view.lookup('sub.example.com', { within: 'example.com' })
    expect(r?.zone.name).toBe('example.com')
  })

  it('returns null for a name in no hosted zone and caches that answer', async () => {
    expect(await view.lookup('www.example.org')).toBeNull()
    kv.resetCounts()
    expect(await view.lookup('www.example.org')).toBeNull()
    expect(kv.calls).toBe(0)
  })

  it('sees a newly created zone once the "no zone here" answer expires', async () => {
    expect(await view.lookup('www.example.org')).toBeNull()
    kv.putAll(zoneImage(meta('example.org'), []))
    t = 4999
    expect(await view.lookup('www.example.org')).toBeNull()
    t = 5000
    expect((await view.lookup('www.example.org'))?.zone.name).toBe('example.org')
  })

  it('splits more than 100 keys into parallel calls of one round trip', async () => {
    const deep = Array.from({ length: 60 }, (_, i) => `l${i}`).join('.') + '.example.com'
    await view.lookup('example.com')
    kv.resetCounts()
    const r = await view.lookup(deep)
    expect(r?.zone.name).toBe('example.com')
    expect(kv.rounds).toBe(1)
    expect(kv.calls).toBeGreaterThan(1)
    expect(kv.keysRead.every((keys) => keys.length <= 100)).toBe(true)
  })

  it('reads zones first when speculation would exceed the key budget and nothing is cached', async () => {
    const deep = Array.from({ length: 20 }, (_, i) => `l${i}`).join('.') + '.sub.example.com'
    const r = await view.lookup(deep)
    expect(r?.zone.name).toBe('sub.example.com')
    expect(kv.rounds).toBe(2)
  })

  it('takes its metadata from the zone key when a zone has no head yet', async () => {
    kv.put(
      zoneKey('nohead.test'),
      encodeZoneMeta({ ...meta('nohead.test'), layout: { buckets: 16 } })
    )
    for (let i = 0; i < 16; i++) kv.put(bucketKey('nohead.test', 16, i), '#3\n')
    const r = await view.lookup('www.nohead.test')
    expect(r?.zone.name).toBe('nohead.test')
    expect(r?.nodes.size).toBe(0)
    expect(kv.calls).toBe(1)
  })
})
