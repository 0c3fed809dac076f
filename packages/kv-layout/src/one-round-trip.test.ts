import { beforeEach, describe, expect, it } from 'vitest'
import { encodeBucket, encodeNode, encodeZoneMeta } from './codec.ts'
import { bucketKey, bucketOf, nodeKey, zoneKey } from './keys.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import type { NodeData, ZoneMeta } from './types.ts'

/** A layout-v2 zone: meta announcing `buckets`, nodes grouped into their hash buckets. */
function putZone(kv: FakeKv, name: string, buckets: number, nodes: Record<string, NodeData>): void {
  kv.put(zoneKey(name), encodeZoneMeta({ ...meta(name), layout: { buckets } }))
  const grouped = new Map<number, [string, string][]>()
  for (const [n, node] of Object.entries(nodes)) {
    const i = bucketOf(n, buckets)
    grouped.set(i, [...(grouped.get(i) ?? []), [n, encodeNode(node)]])
  }
  for (const [i, entries] of grouped) kv.put(bucketKey(name, buckets, i), encodeBucket(entries))
}

function meta(name: string): ZoneMeta {
  return {
    v: 1,
    id: name.replace(/\W/g, '').padEnd(32, '0').slice(0, 32),
    name,
    serial: 1,
    soa: {
      mname: `ns1.${name}`,
      rname: `hostmaster.${name}`,
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

const a = (ip: string): NodeData => ({ v: 1, sets: { A: { ttl: 300, rdata: [ip] } } })

describe('KvZoneView', () => {
  let kv: FakeKv
  let t: number
  let view: KvZoneView

  beforeEach(() => {
    kv = new FakeKv()
    t = 0
    view = new KvZoneView(kv, { now: () => t, cacheTtlMs: 5000 })
    putZone(kv, 'example.com', 4096, {
      'www.example.com': a('192.0.2.10'),
      'b.example.com': { v: 1, sets: {} },
      'a.b.example.com': a('192.0.2.11'),
      '*.example.com': a('192.0.2.99'),
    })
    putZone(kv, 'sub.example.com', 16, { 'x.sub.example.com': a('192.0.2.20') })
  })

  it('reads a layout-v1 zone (migration): a second round trip on a cold cache, one when warm', async () => {
    kv.put(zoneKey('old.test'), encodeZoneMeta(meta('old.test')))
    kv.put(nodeKey('old.test', 'www.old.test'), encodeNode(a('192.0.2.30')))
    const r = await view.lookup('www.old.test')
    expect(kv.rounds).toBe(2)
    expect(r?.nodes.get('www.old.test')?.sets.A?.rdata).toEqual(['192.0.2.30'])
    kv.resetCounts()
    expect((await view.lookup('www.old.test'))?.nodes.has('www.old.test')).toBe(true)
    expect(kv.rounds).toBe(1)
  })

  it('reads only the bucket keys of the cached zone\'s own bucket count when warm', async () => {
    await view.lookup('www.example.com')
    kv.resetCounts()
    await view.lookup('www.example.com')
    const keys = kv.keysRead.flat()
    expect(keys.every((k) => k.startsWith('b:example.com:4096:'))).toBe(true)
    expect(keys.length).toBeLessThanOrEqual(2) // the name's bucket and the wildcard's bucket
  })

  it('finds an existing name in one round trip with a cold cache', async () => {
    const r = await view.lookup('WWW.example.com.')
    expect(kv.rounds).toBe(1)
    expect(r?.zone.name).toBe('example.com')
    expect(r?.nodes.get('www.example.com')?.sets.A?.rdata).toEqual(['192.0.2.10'])
  })

  it('finds an existing name in one round trip with a warm cache, reading no zone keys', async () => {
    await view.lookup('www.example.com')
    kv.resetCounts()
    const r = await view.lookup('a.b.example.com')
    expect(kv.rounds).toBe(1)
    expect(kv.calls).toBe(1)
    const zoneKeys = kv.keysRead.flat().filter((k) => k.startsWith('z:'))
    expect(zoneKeys.sort()).toEqual(['z:a.b.example.com', 'z:b.example.com'])
    expect([...(r?.nodes.keys() ?? [])].sort()).toEqual([
      '*.example.com',
      'a.b.example.com',
      'b.example.com',
    ])
  })

  it('reads no KV at all for a cached apex', async () => {
    await view.lookup('example.com')
    kv.resetCounts()
    const r = await view.lookup('example.com')
    expect(kv.calls).toBe(0)
    expect(r?.zone.apex.sets.A?.rdata).toEqual(['192.0.2.1'])
    expect(r?.nodes.size).toBe(0)
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

  it('re-reads zone metadata once the cache TTL has passed', async () => {
    await view.lookup('www.example.com')
    kv.put(zoneKey('example.com'), encodeZoneMeta({ ...meta('example.com'), serial: 2 }))
    t = 4999
    expect((await view.lookup('www.example.com'))?.zone.serial).toBe(1)
    t = 5000
    expect((await view.lookup('www.example.com'))?.zone.serial).toBe(2)
  })

  it('sees a newly created zone after the negative entry expires', async () => {
    expect(await view.lookup('www.example.org')).toBeNull()
    kv.put(zoneKey('example.org'), encodeZoneMeta(meta('example.org')))
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
  })

  it('reads zones first when speculation would exceed the key budget and nothing is cached', async () => {
    const deep = Array.from({ length: 20 }, (_, i) => `l${i}`).join('.') + '.sub.example.com'
    const r = await view.lookup(deep)
    expect(r?.zone.name).toBe('sub.example.com')
    expect(kv.rounds).toBe(2)
  })
})
