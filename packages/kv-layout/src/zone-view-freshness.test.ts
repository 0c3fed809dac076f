/**
 * How a cached zone follows the builder: newer heads (overlay, listed buckets, gaps, a new bucket
 * count), a bucket count switch, a missing bucket, a deleted or re-created zone, the byte bound.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { encodeNode, encodeZoneMeta, KvLayoutError } from './codec.ts'
import { encodeHead, HEAD_CHANGE_HISTORY, headKey, headKeys, headSlot } from './head.ts'
import { bucketKey, zoneKey } from './keys.ts'
import type { KvBulkReader } from './kv-reads.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import { a, ZoneWriter } from './test-zone-writer.ts'
import type { NodeData, ZoneLookup } from './types.ts'

/** A FakeKv whose next bulk get can be held after it has read its values. */
class HoldingKv extends FakeKv {
  #hold: { taken: () => void; gate: Promise<void> } | null = null

  hold(): { taken: Promise<void>; release: () => void } {
    let taken!: () => void
    let release!: () => void
    const takenP = new Promise<void>((r) => (taken = r))
    this.#hold = { taken, gate: new Promise<void>((r) => (release = r)) }
    return { taken: takenP, release }
  }

  override async get(
    keys: string[],
    type: { type: 'text'; cacheTtl?: number }
  ): Promise<Map<string, string | null>> {
    const hold = this.#hold
    if (!hold) return super.get(keys, type)
    this.#hold = null
    const values = await super.get(keys, type)
    hold.taken()
    await hold.gate
    return values
  }
}

const REVALIDATE_MS = 1000
const rdata = (r: ZoneLookup | null, name: string): string[] | undefined =>
  r?.nodes.get(name)?.sets.A?.rdata

describe('KvZoneView freshness', () => {
  let kv: HoldingKv
  let t: number
  let view: KvZoneView
  let zone: ZoneWriter
  const fresh = (reader: KvBulkReader = kv) =>
    new KvZoneView(reader, { now: () => t, revalidateMs: REVALIDATE_MS })
  /** Moves the clock past the revalidation window. */
  const later = () => (t += REVALIDATE_MS + 1)

  beforeEach(async () => {
    kv = new HoldingKv()
    t = 0
    view = fresh()
    // x (bucket 9), www (14), the wildcard (15), y (2): four distinct buckets of 16
    zone = new ZoneWriter(kv, 'example.com', {
      'www.example.com': a('192.0.2.1'),
      'x.example.com': a('192.0.2.2'),
      'y.example.com': a('192.0.2.3'),
      '*.example.com': a('192.0.2.99'),
    })
    expect(new Set(['x', 'www', '*', 'y'].map((l) => zone.bucket(`${l}.example.com`))).size).toBe(4)
    for (const name of ['www.example.com', 'x.example.com', 'y.example.com'])
      await view.lookup(name)
    kv.resetCounts()
  })

  it('a newer head with an overlay shows a changed name, a new name, a deleted name, the SOA minimum and the NS TTL with no bucket read', async () => {
    zone.meta = {
      ...zone.meta,
      soa: { ...zone.meta.soa, minimum: 30 },
      apex: { v: 1, sets: { NS: { ttl: 600, rdata: ['ns1.example.net.'] } } },
    }
    zone.head({
      overlay: [
        ['www.example.com', a('192.0.2.50')],
        ['new.example.com', a('192.0.2.51')],
        ['y.example.com', null],
      ],
    })
    later()
    const www = await view.lookup('www.example.com')
    expect(rdata(www, 'www.example.com')).toEqual(['192.0.2.50'])
    expect(www?.zone.soa.minimum).toBe(30)
    expect(www?.zone.apex.sets.NS?.ttl).toBe(600)
    expect(rdata(await view.lookup('new.example.com'), 'new.example.com')).toEqual(['192.0.2.51'])
    expect((await view.lookup('y.example.com'))?.nodes.has('y.example.com')).toBe(false)
    expect(kv.calls).toBe(1) // the revalidation
    expect(kv.keysRead.flat().filter((k) => k.startsWith('b:'))).toEqual([])
  })

  it('a newer head listing a bucket drops exactly that cached bucket', async () => {
    zone.nodes.set('x.example.com', a('192.0.2.60'))
    zone.writeBucket(zone.bucket('x.example.com'))
    // www's bucket changes in KV too, but no head lists it: the cached copy stays in use
    zone.nodes.set('www.example.com', a('192.0.2.61'))
    zone.writeBucket(zone.bucket('www.example.com'))
    zone.head({ buckets: [zone.bucket('x.example.com')] })
    later()
    expect(rdata(await view.lookup('x.example.com'), 'x.example.com')).toEqual(['192.0.2.60'])
    expect(kv.keysRead[1]).toEqual([bucketKey('example.com', 16, zone.bucket('x.example.com'))])
    kv.resetCounts()
    expect(rdata(await view.lookup('www.example.com'), 'www.example.com')).toEqual(['192.0.2.1'])
    expect(rdata(await view.lookup('y.example.com'), 'y.example.com')).toEqual(['192.0.2.3'])
    expect(kv.calls).toBe(0)
  })

  it('a reader that missed more heads than the history holds drops every cached bucket', async () => {
    const quiet = zone.bucket('y.example.com')
    for (let n = 2; n <= HEAD_CHANGE_HISTORY + 8; n++) {
      if (n === 3) {
        zone.nodes.set('y.example.com', a('192.0.2.70'))
        zone.writeBucket(quiet)
        zone.head({ buckets: [quiet] })
      } else zone.head()
    }
    expect(zone.changed.some(([n]) => n === 3)).toBe(false)
    later()
    expect(rdata(await view.lookup('y.example.com'), 'y.example.com')).toEqual(['192.0.2.70'])
    kv.resetCounts()
    await view.lookup('www.example.com')
    expect(kv.calls).toBe(1) // www's bucket was dropped too
  })

  it('a head announcing another bucket count drops every cached bucket and reads the new count', async () => {
    zone.nodes.set('www.example.com', a('192.0.2.80'))
    zone.writeAllBuckets(256)
    zone.meta = { ...zone.meta, layout: { buckets: 256, prev: 16 } }
    zone.head() // contiguous, lists no bucket: only the count says the buckets changed
    later()
    expect(rdata(await view.lookup('www.example.com'), 'www.example.com')).toEqual(['192.0.2.80'])
    expect(kv.keysRead[1]?.every((k) => k.startsWith('b:example.com:256:'))).toBe(true)
  })

  it('does not keep a bucket whose read started before a newer head was applied', async () => {
    const cold = fresh()
    await cold.lookup('www.example.com') // zone and www's buckets cached; x's is not
    const held = kv.hold()
    const pending = cold.lookup('x.example.com')
    await held.taken // x's bucket has been read, still the old text
    zone.nodes.set('x.example.com', a('192.0.2.90'))
    zone.writeBucket(zone.bucket('x.example.com'))
    zone.head({ buckets: [zone.bucket('x.example.com')] })
    later()
    await cold.lookup('www.example.com') // revalidates: head 2 applies
    held.release()
    expect(rdata(await pending, 'x.example.com')).toEqual(['192.0.2.2']) // that answer used what it read
    kv.resetCounts()
    expect(rdata(await cold.lookup('x.example.com'), 'x.example.com')).toEqual(['192.0.2.90'])
    expect(kv.calls).toBe(1)
  })

  it('concurrent lookups waiting on one revalidation all see the newer head', async () => {
    zone.head({ overlay: [['www.example.com', a('192.0.2.95')]] })
    later()
    const rs = await Promise.all([
      view.lookup('www.example.com'),
      view.lookup('www.example.com'),
      view.lookup('x.example.com'),
    ])
    expect(rs.slice(0, 2).map((r) => rdata(r, 'www.example.com'))).toEqual([
      ['192.0.2.95'],
      ['192.0.2.95'],
    ])
    expect(rdata(rs[2]!, 'x.example.com')).toEqual(['192.0.2.2'])
    expect(kv.calls).toBe(1)
  })

  it('a deleted zone (zone key gone) answers null, warm and cold', async () => {
    zone.deleteAll()
    later()
    expect(await view.lookup('www.example.com')).toBeNull()
    expect(await fresh().lookup('www.example.com')).toBeNull()
  })

  it('a zone key gone while its heads remain answers null', async () => {
    kv.delete(zoneKey('example.com'))
    later()
    expect(await view.lookup('www.example.com')).toBeNull()
    expect(await fresh().lookup('www.example.com')).toBeNull()
  })

  it('picks up a zone re-created under the same name with a new id and a lower head counter', async () => {
    for (let i = 0; i < 4; i++) zone.head() // the reader is at head 1; the old zone reaches head 5
    later()
    await view.lookup('www.example.com')
    expect((await view.lookup('www.example.com'))?.zone.id).toBe('a'.repeat(32))
    zone.deleteAll()
    const again = new ZoneWriter(
      kv,
      'example.com',
      { 'www.example.com': a('192.0.2.200') },
      16,
      'b'.repeat(32)
    )
    expect(again.n).toBe(1)
    later()
    const r = await view.lookup('www.example.com')
    expect(r?.zone.id).toBe('b'.repeat(32))
    expect(rdata(r, 'www.example.com')).toEqual(['192.0.2.200'])
    expect((await view.lookup('x.example.com'))?.nodes.has('x.example.com')).toBe(false)
  })
})

describe('KvZoneView once a zone has lapped its head slots', () => {
  let kv: FakeKv
  let t: number
  let view: KvZoneView
  let zone: ZoneWriter
  const fresh = () => new KvZoneView(kv, { now: () => t, revalidateMs: REVALIDATE_MS })
  const later = () => (t += REVALIDATE_MS + 1)
  const slotOf = (n: number) => headKey('example.com', headSlot(n))

  beforeEach(async () => {
    kv = new FakeKv()
    t = 0
    zone = new ZoneWriter(kv, 'example.com', { 'www.example.com': a('192.0.2.1') })
    for (let i = 0; i < 10; i++) zone.head() // head 11: every slot written at least once
    view = fresh()
    await view.lookup('www.example.com')
    kv.resetCounts()
  })

  it('confirms an unchanged zone by reading only the slot its next head goes to', async () => {
    later()
    expect(rdata(await view.lookup('www.example.com'), 'www.example.com')).toEqual(['192.0.2.1'])
    expect(kv.keysRead).toEqual([[slotOf(12)]])
  })

  it('takes every head written since, in order, one slot at a time (apex settings included)', async () => {
    zone.head({ overlay: [['www.example.com', a('192.0.2.2')]] })
    zone.meta = { ...zone.meta, soa: { ...zone.meta.soa, minimum: 30 } }
    zone.head({
      overlay: [
        ['www.example.com', a('192.0.2.3')],
        ['new.example.com', a('192.0.2.4')],
      ],
    })
    later()
    const www = await view.lookup('www.example.com')
    expect(rdata(www, 'www.example.com')).toEqual(['192.0.2.3'])
    expect(www?.zone.soa.minimum).toBe(30)
    expect(rdata(await view.lookup('new.example.com'), 'new.example.com')).toEqual(['192.0.2.4'])
    expect(kv.keysRead).toEqual([[slotOf(12)], [slotOf(13)], [slotOf(14)]])
  })

  it('reads the zone key and every slot when it fell a whole lap behind', async () => {
    for (let i = 0; i < 9; i++) zone.head({ overlay: [['www.example.com', a('192.0.2.9')]] })
    later()
    expect(rdata(await view.lookup('www.example.com'), 'www.example.com')).toEqual(['192.0.2.9'])
    expect(kv.keysRead[0]).toEqual([slotOf(12)])
    expect(kv.keysRead[1]).toEqual([zoneKey('example.com'), ...headKeys('example.com')])
  })

  it('takes the newest head when the next one names an overlay key that is gone', async () => {
    // Head 12 put its overlay in a key of its own; head 13 flushed it into its bucket, and the key was deleted.
    zone.changed = [...zone.changed, [12, []]]
    kv.put(
      slotOf(12),
      encodeHead({
        n: 12,
        seq: 12,
        meta: encodeZoneMeta(zone.meta),
        overlay: [],
        overlayKey: 'o:example.com:12',
        changed: zone.changed,
      })
    )
    zone.n = 12
    zone.nodes.set('www.example.com', a('192.0.2.13'))
    zone.writeBucket(zone.bucket('www.example.com'))
    zone.head({ buckets: [zone.bucket('www.example.com')] })
    later()
    expect(rdata(await view.lookup('www.example.com'), 'www.example.com')).toEqual(['192.0.2.13'])
  })

  it('answers null once the zone is purged (its next slot is empty)', async () => {
    zone.deleteAll()
    later()
    expect(await view.lookup('www.example.com')).toBeNull()
  })

  it('never takes the heads an earlier zone of the same name left in the slots, warm or cold', async () => {
    // The zone (at head 11) is deleted while another of the same name is created: the purge
    // leaves the slots to the new zone, whose first full build writes its zone key, its buckets
    // and head 1, then clears the other slots.
    for (const key of [...kv.data.keys()])
      if (key.startsWith('b:') || key === zoneKey('example.com')) kv.delete(key)
    const id = 'b'.repeat(32)
    new ZoneWriter(kv, 'example.com', { 'www.example.com': a('192.0.2.200') }, 16, id)
    // Cold, before the slots are cleared: heads 4–11 of the earlier zone outnumber head 1.
    const cold = await fresh().lookup('www.example.com')
    expect(cold?.zone.id).toBe(id)
    expect(rdata(cold, 'www.example.com')).toEqual(['192.0.2.200'])
    // Warm: its next head's slot still holds the earlier zone's head 4 until the slots are cleared.
    for (let slot = 0; slot < 8; slot++)
      if (slot !== headSlot(1)) kv.delete(headKey('example.com', slot))
    later()
    const warm = await view.lookup('www.example.com')
    expect(warm?.zone.id).toBe(id)
    expect(rdata(warm, 'www.example.com')).toEqual(['192.0.2.200'])
  })

  it("reads every slot when the next one holds another zone's head", async () => {
    const other = encodeHead({
      n: 12,
      seq: 12,
      meta: encodeZoneMeta({ ...zone.meta, id: 'c'.repeat(32) }),
      overlay: [['www.example.com', encodeNode(a('192.0.2.66'))]],
      changed: [[12, 'all']],
    })
    kv.put(slotOf(12), other)
    later()
    // The zone key still names this zone: the foreign head is not taken.
    expect(rdata(await view.lookup('www.example.com'), 'www.example.com')).toEqual(['192.0.2.1'])
    expect(kv.keysRead[1]).toEqual([zoneKey('example.com'), ...headKeys('example.com')])
  })
})

describe('KvZoneView across a bucket count switch', () => {
  let kv: FakeKv
  let t: number
  const fresh = () => new KvZoneView(kv, { now: () => t, revalidateMs: REVALIDATE_MS })

  beforeEach(() => {
    kv = new FakeKv()
    t = 0
  })

  it('keeps answering an existing name, warm and cold, at every step of a 16 → 256 switch', async () => {
    const zone = new ZoneWriter(kv, 'example.com', {
      'www.example.com': a('192.0.2.1'),
      'x.example.com': a('192.0.2.2'),
    })
    const warm = fresh()
    const check = async (step: string) => {
      t += REVALIDATE_MS + 1
      for (const [who, v] of [
        ['warm', warm],
        ['cold', fresh()],
      ] as const) {
        const r = await v.lookup('www.example.com')
        expect(rdata(r, 'www.example.com'), `${step}, ${who}`).toEqual(['192.0.2.1'])
      }
    }
    await check('16 buckets')
    zone.writeAllBuckets(256)
    await check('256 buckets written, still announced as 16')
    zone.meta = { ...zone.meta, layout: { buckets: 256, prev: 16 } }
    zone.writeZoneKey()
    await check('zone key says 256, no head yet')
    zone.head({ buckets: 'all' })
    await check('head 2 says 256 (prev 16)')
    kv.delete(bucketKey('example.com', 256, zone.bucket('www.example.com', 256)))
    await check("www's 256 bucket missing here (a cached miss), 16 still there")
    // the warm reader, holding www's 256 bucket, is told it changed: it reads it again, falls back
    zone.head({ buckets: [zone.bucket('www.example.com', 256)] })
    await check('head 3 lists the missing bucket')
  })

  it('falls back to the previous count for a live bucket that is missing', async () => {
    const zone = new ZoneWriter(kv, 'example.com', { 'www.example.com': a('192.0.2.1') })
    zone.writeAllBuckets(256)
    zone.meta = { ...zone.meta, layout: { buckets: 256, prev: 16 } }
    zone.head({ buckets: 'all' })
    kv.delete(bucketKey('example.com', 256, zone.bucket('www.example.com', 256)))
    const view = fresh()
    expect(rdata(await view.lookup('www.example.com'), 'www.example.com')).toEqual(['192.0.2.1'])
  })

  it('fails (never "no such name") for a missing live bucket without a previous count', async () => {
    const zone = new ZoneWriter(kv, 'example.com', { 'www.example.com': a('192.0.2.1') })
    kv.delete(bucketKey('example.com', 16, zone.bucket('www.example.com')))
    await expect(fresh().lookup('www.example.com')).rejects.toThrow(KvLayoutError)
  })

  it('fails when the live and the previous bucket are both missing', async () => {
    const zone = new ZoneWriter(kv, 'example.com', { 'www.example.com': a('192.0.2.1') })
    zone.writeAllBuckets(256)
    zone.meta = { ...zone.meta, layout: { buckets: 256, prev: 16 } }
    zone.head({ buckets: 'all' })
    kv.delete(bucketKey('example.com', 256, zone.bucket('www.example.com', 256)))
    kv.delete(bucketKey('example.com', 16, zone.bucket('www.example.com', 16)))
    await expect(fresh().lookup('www.example.com')).rejects.toThrow(KvLayoutError)
  })
})

describe('KvZoneView cache bound', () => {
  it('stays within cacheBytes by evicting buckets, and keeps answering', async () => {
    const kv = new FakeKv()
    const nodes: Record<string, NodeData> = {}
    for (let i = 0; i < 64; i++) nodes[`h${i}.example.com`] = a(`192.0.2.${i}`)
    new ZoneWriter(kv, 'example.com', nodes)
    const names = Object.keys(nodes)
    const bucketBytes = [...kv.data]
      .filter(([k]) => k.startsWith('b:'))
      .reduce((sum, [, v]) => sum + v.length, 0)

    const roomy = new KvZoneView(kv, { now: () => 0, revalidateMs: REVALIDATE_MS })
    for (const n of names) await roomy.lookup(n)
    const all = roomy.snapshot()
    expect(all.cachedBuckets).toBe(16)
    expect(all.cacheBytes).toBeGreaterThan(bucketBytes)

    const cacheBytes = Math.floor(all.cacheBytes / 2)
    const small = new KvZoneView(kv, { now: () => 0, revalidateMs: REVALIDATE_MS, cacheBytes })
    for (const n of names) {
      expect(rdata(await small.lookup(n), n)).toEqual(nodes[n]!.sets.A!.rdata)
      expect(small.snapshot().cacheBytes).toBeLessThanOrEqual(cacheBytes)
    }
    const s = small.snapshot()
    expect(s.cachedBuckets).toBeLessThan(16)
    expect(s.cachedBuckets).toBeGreaterThan(0)
    expect(s.cacheBytes).toBeGreaterThan(0)
    // an evicted bucket costs a read again
    kv.resetCounts()
    for (const n of names) await small.lookup(n)
    expect(kv.calls).toBeGreaterThan(0)
  })
})
