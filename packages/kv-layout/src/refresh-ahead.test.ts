/**
 * With a way to keep the request alive (Workers' waitUntil), a zone confirmed more than half the
 * window ago is confirmed again in the background: the query is answered at once, and the next one
 * finds the zone already confirmed — under steady load no query waits for KV.
 */
import { describe, expect, it } from 'vitest'
import { encodeZoneMeta } from './codec.ts'
import { encodeHead, encodeOverlay, headKey, OVERLAY_INLINE_MAX, overlayKey } from './head.ts'
import { zoneImage } from './image.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import type { ZoneMeta } from './types.ts'

const meta: ZoneMeta = {
  v: 1,
  id: 'e'.repeat(32),
  name: 'ahead.test',
  serial: 1,
  soa: {
    mname: 'ns1.ahead.test',
    rname: 'h.ahead.test',
    refresh: 1,
    retry: 1,
    expire: 1,
    minimum: 60,
    ttl: 60,
  },
  ns: ['ns1.ahead.test'],
  proxy: { ipv4: [], ipv6: [] },
  apex: { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.1'] } } },
}

describe('background confirmation', () => {
  it('answers without waiting past half the window, and the background read brings the next head', async () => {
    const kv = new FakeKv()
    kv.putAll(
      zoneImage(
        { ...meta, layout: { buckets: 16 } },
        [['www.ahead.test', { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.9'] } } }]],
        { buckets: 16 }
      )
    )
    let t = 1000
    const view = new KvZoneView(kv, { revalidateMs: 10, now: () => t })
    const pending: Promise<unknown>[] = []
    const keepAlive = (p: Promise<unknown>) => void pending.push(p)
    await view.lookup('ahead.test', { keepAlive }) // cold: confirmed at t = 1000
    kv.resetCounts()

    t = 1003 // within half the window: nothing to do
    await view.lookup('ahead.test', { keepAlive })
    expect(kv.calls).toBe(0)
    expect(pending).toHaveLength(0)

    // A change lands, then a query past half the window: answered from what is held, one read starts.
    const apex = { v: 1 as const, sets: { A: { ttl: 300, rdata: ['192.0.2.2'] } } }
    kv.put(
      headKey('ahead.test', 2),
      encodeHead({
        n: 2,
        seq: 2,
        meta: encodeZoneMeta({ ...meta, apex, layout: { buckets: 16 } }),
        overlay: [],
        changed: [
          [1, 'all'],
          [2, []],
        ],
      })
    )
    t = 1007
    const answered = await view.lookup('ahead.test', { keepAlive })
    expect(answered!.zone.apex.sets.A!.rdata).toEqual(['192.0.2.1'])
    expect(pending).toHaveLength(1)
    await Promise.all(pending)
    expect(kv.calls).toBe(1)

    // Past the window of the first confirmation, but within that of the background one: no wait, new data.
    t = 1012
    kv.resetCounts()
    const next = await view.lookup('ahead.test', { keepAlive })
    expect(next!.zone.apex.sets.A!.rdata).toEqual(['192.0.2.2'])
    expect(kv.calls).toBe(0)
  })

  it('with refreshAheadMs, starts the background read that early while the bound stays revalidateMs', async () => {
    const kv = new FakeKv()
    kv.putAll(zoneImage({ ...meta, layout: { buckets: 16 } }, [], { buckets: 16 }))
    let t = 1000
    const view = new KvZoneView(kv, { revalidateMs: 20, refreshAheadMs: 2, now: () => t })
    const pending: Promise<unknown>[] = []
    const keepAlive = (p: Promise<unknown>) => void pending.push(p)
    await view.lookup('ahead.test', { keepAlive })
    kv.resetCounts()
    t = 1001
    await view.lookup('ahead.test', { keepAlive })
    expect(pending).toHaveLength(0)
    t = 1003 // past refreshAheadMs, well within the bound: answered at once, one read in the background
    await view.lookup('ahead.test', { keepAlive })
    expect(pending).toHaveLength(1)
    await Promise.all(pending)
    expect(kv.calls).toBe(1)
  })

  it('without a way to keep the request alive, never starts a read it would not wait for', async () => {
    const kv = new FakeKv()
    kv.putAll(zoneImage({ ...meta, layout: { buckets: 16 } }, [], { buckets: 16 }))
    let t = 1000
    const view = new KvZoneView(kv, { revalidateMs: 10, now: () => t })
    await view.lookup('ahead.test')
    kv.resetCounts()
    t = 1008
    await view.lookup('ahead.test')
    expect(kv.calls).toBe(0)
  })
})

describe('large overlays', () => {
  it('a head naming an overlay key is read with its overlay; one whose key is not visible yet is taken later', async () => {
    const kv = new FakeKv()
    kv.putAll(zoneImage({ ...meta, layout: { buckets: 16 } }, [], { buckets: 16 }))
    let t = 1000
    const view = new KvZoneView(kv, { revalidateMs: 10, now: () => t })
    expect((await view.lookup('x1.ahead.test'))!.nodes.size).toBe(0)
    const encodedMeta = encodeZoneMeta({ ...meta, layout: { buckets: 16 } })
    const names = Array.from(
      { length: 2000 },
      (_, i) => [`x${i}.ahead.test`, '[["A",300,["192.0.2.7"]]]'] as const
    )
    expect(encodeOverlay(names).length).toBeGreaterThan(OVERLAY_INLINE_MAX)
    // The head is visible before its overlay key (another location, in production): not taken yet.
    kv.put(
      headKey('ahead.test', 2),
      encodeHead({
        n: 2,
        seq: 2,
        meta: encodedMeta,
        overlay: [],
        overlayKey: overlayKey('ahead.test', 'e'.repeat(32), 2),
        changed: [
          [1, 'all'],
          [2, []],
        ],
      })
    )
    t += 11
    expect((await view.lookup('x1.ahead.test'))!.nodes.size).toBe(0)
    kv.put(overlayKey('ahead.test', 'e'.repeat(32), 2), encodeOverlay(names))
    t += 11
    const found = await view.lookup('x1.ahead.test')
    expect(found!.nodes.get('x1.ahead.test')!.sets.A!.rdata).toEqual(['192.0.2.7'])
    // A later confirmation with no newer head reads only the small slots, not the overlay again.
    kv.resetCounts()
    t += 11
    await view.lookup('x1.ahead.test')
    expect(kv.keysRead.flat().filter((k) => k.startsWith('o:'))).toEqual([])
  })
})
