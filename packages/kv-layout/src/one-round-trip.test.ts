import { beforeEach, describe, expect, it } from 'vitest'
import { encodeNode, encodeZoneMeta } from './codec.ts'
import { nodeKey, zoneKey } from './keys.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import type { NodeData, ZoneMeta } from './types.ts'

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
    kv.put(zoneKey('example.com'), encodeZoneMeta(meta('example.com')))
    kv.put(nodeKey('example.com', 'www.example.com'), encodeNode(a('192.0.2.10')))
    kv.put(nodeKey('example.com', 'b.example.com'), encodeNode({ v: 1, sets: {} }))
    kv.put(nodeKey('example.com', 'a.b.example.com'), encodeNode(a('192.0.2.11')))
    kv.put(nodeKey('example.com', '*.example.com'), encodeNode(a('192.0.2.99')))
    kv.put(zoneKey('sub.example.com'), encodeZoneMeta(meta('sub.example.com')))
    kv.put(nodeKey('sub.example.com', 'x.sub.example.com'), encodeNode(a('192.0.2.20')))
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
