/**
 * What kept versions tables cost the view: each is counted in `cacheBytes`, the tables keep to
 * their share of it, and the view's counters show their bytes.
 */
import { describe, expect, it } from 'vitest'
import { HELD_ZONE_BYTES } from './held-head.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import { a, ZoneWriter } from './test-zone-writer.ts'

const BUCKETS = 512
/** Buckets each zone's second head rewrites: its versions table lists this many versions. */
const VERSIONS = 400
/**
 * Bytes a decoded version takes at the least: a map entry holds its key, its value and a link, each
 * a slot of at least four bytes.
 */
const VERSION_HEAP_FLOOR = 12

const zoneName = (k: number) => `z${k}.tables.example`

/** Zone k, versioned, whose newest head names a versions table of `VERSIONS` versions. */
function putZone(kv: FakeKv, k: number): void {
  const name = zoneName(k)
  const id = k.toString(16).padStart(32, 'c')
  const zone = new ZoneWriter(kv, name, [[`www.${name}`, a('192.0.2.1')]], BUCKETS, id, {
    versioned: true,
    versionsMax: 4,
  })
  const rewritten = Array.from({ length: VERSIONS }, (_, i) => i)
  for (const i of rewritten) zone.writeBucket(i)
  zone.head({ buckets: rewritten })
}

/** Keys of versions tables among the keys read since the last reset. */
const tableReads = (kv: FakeKv) =>
  kv.keysRead.flat().filter((key) => key.startsWith('o:') && key.endsWith(':v'))

describe('KvZoneView counts the versions tables it keeps', () => {
  it('a view with a small cacheBytes keeps no more tables than its budget holds', async () => {
    const kv = new FakeKv()
    const zones = Array.from({ length: 14 }, (_, k) => k)
    for (const k of zones) putZone(kv, k)
    const cacheBytes = 64 * 1024
    const view = new KvZoneView(kv, { now: () => 0, cacheBytes, zoneCacheBytes: 16 * 1024 })
    for (const k of zones) {
      kv.resetCounts()
      const found = await view.lookup(`www.${zoneName(k)}`)
      expect(found?.nodes.get(`www.${zoneName(k)}`)?.sets.A?.rdata).toEqual(['192.0.2.1'])
      expect(tableReads(kv)).toHaveLength(1) // each table is read with its zone's first head
    }
    expect(view.snapshot().cacheBytes).toBeLessThanOrEqual(cacheBytes)
    // Most recently read first: a zone whose table is still kept reads its head alone.
    let kept = 0
    for (const k of [...zones].reverse()) {
      kv.resetCounts()
      await view.lookup(`www.${zoneName(k)}`)
      if (tableReads(kv).length === 0) kept++
      else break
    }
    expect(kept).toBeGreaterThan(0)
    const s = view.snapshot()
    // The tables kept, at the least they take, fit in the budget beside the zones held.
    expect(kept * VERSIONS * VERSION_HEAP_FLOOR).toBeLessThanOrEqual(
      cacheBytes - s.zones * HELD_ZONE_BYTES
    )
    expect(s.versionsTableBytes).toBeGreaterThanOrEqual(kept * VERSIONS * VERSION_HEAP_FLOOR)
    expect(s.cacheBytes).toBeLessThanOrEqual(cacheBytes)
  })

  it("the view's counters show the kept tables' bytes inside cacheBytes, and clearing drops them", async () => {
    const kv = new FakeKv()
    putZone(kv, 0)
    const view = new KvZoneView(kv, { now: () => 0 })
    await view.lookup(`www.${zoneName(0)}`)
    const s = view.snapshot()
    expect(s.versionsTableBytes).toBeGreaterThanOrEqual(VERSIONS * VERSION_HEAP_FLOOR)
    expect(s.cacheBytes).toBeGreaterThanOrEqual(s.versionsTableBytes + HELD_ZONE_BYTES)
    view.clearCache()
    expect(view.snapshot()).toMatchObject({ cacheBytes: 0, versionsTableBytes: 0 })
  })
})
