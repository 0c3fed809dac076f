/**
 * How a cached zone follows the builder once the zone has lapped its head slots: it confirms by
 * reading the next slot, takes the heads written since in order, and never takes a head another
 * zone of the same name left behind.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { encodeNode, encodeZoneMeta } from './codec.ts'
import { encodeHead, headKey, headKeys, headSlot } from './head.ts'
import { zoneKey } from './keys.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import { a, ZoneWriter } from './test-zone-writer.ts'
import type { ZoneLookup } from './types.ts'

const REVALIDATE_MS = 1000
const rdata = (r: ZoneLookup | null, name: string): string[] | undefined =>
  r?.nodes.get(name)?.sets.A?.rdata

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
    // Head 12 put its overlay in a key of its own; head 13 flushed it, and the key was deleted.
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
