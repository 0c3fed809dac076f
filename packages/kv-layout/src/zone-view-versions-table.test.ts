/**
 * A head that names a versions table (its bucket versions written once to a key of their own) and
 * lists only the versions changed since: readers, warm and cold, read every bucket at the version
 * the table and the head name together, and read each table once.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { decodeHead, headKey, headSlot } from './head.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { FakeKv } from './test-fake-kv.ts'
import { a, ZoneWriter } from './test-zone-writer.ts'
import type { ZoneLookup } from './types.ts'

const REVALIDATE_MS = 1000
const rdata = (r: ZoneLookup | null, name: string): string | undefined =>
  r?.nodes.get(name)?.sets.A?.rdata[0]
const names = Array.from({ length: 40 }, (_, i) => `n${i}.example.com`)
/** One name of each bucket the names fall in: changing them rewrites that many buckets. */
const spread = (zone: ZoneWriter) => [
  ...new Map(names.map((n) => [zone.bucket(n), n] as const)).values(),
]

describe('KvZoneView over heads that name a versions table', () => {
  let t: number
  let kv: FakeKv
  let zone: ZoneWriter
  const view = () => new KvZoneView(kv, { now: () => t, revalidateMs: REVALIDATE_MS })
  const newestHead = () => decodeHead(kv.data.get(headKey('example.com', headSlot(zone.n)))!)
  /** Changes `name` the way a pass and its flush do: the bucket rewritten, then a head naming it. */
  const change = (name: string, ip: string) => {
    zone.nodes.set(name, a(ip))
    const i = zone.bucket(name)
    zone.writeBucket(i)
    zone.head({ buckets: [i] })
  }

  beforeEach(() => {
    t = 0
    kv = new FakeKv()
    zone = new ZoneWriter(
      kv,
      'example.com',
      names.map((n) => [n, a('192.0.2.1')] as const),
      16,
      'e'.repeat(32),
      { versioned: true, now: () => t, versionsMax: 2 }
    )
  })

  it('a warm reader follows heads naming a table and then a newer table, reading each table once', async () => {
    const warm = view()
    for (const n of names) expect(rdata(await warm.lookup(n), n)).toBe('192.0.2.1')
    const tables = new Set<string>()
    const changing = spread(zone).slice(0, 12)
    for (const [k, n] of changing.entries()) {
      change(n, `192.0.2.${10 + k}`)
      const head = newestHead()
      expect(head.bv!.changed.size).toBeLessThanOrEqual(2)
      if (head.versionsKey) tables.add(head.versionsKey)
      t += REVALIDATE_MS + 1
      kv.resetCounts()
      expect(rdata(await warm.lookup(n), n)).toBe(`192.0.2.${10 + k}`)
      // The table a head names is read once per isolate, then kept.
      const tableReads = kv.keysRead.flat().filter((key) => key.endsWith(':v'))
      expect(tableReads.length).toBeLessThanOrEqual(1)
    }
    expect(tables.size).toBeGreaterThan(1) // the list outgrew the limit again: a newer table
    // Every name, changed or not, reads from the bucket version the table and head name.
    t += REVALIDATE_MS + 1
    for (const n of names) {
      const k = changing.indexOf(n)
      expect(rdata(await warm.lookup(n), n)).toBe(k >= 0 ? `192.0.2.${10 + k}` : '192.0.2.1')
    }
  })

  it('a cold reader reads the table with the head and answers from the right bucket versions', async () => {
    const changing = spread(zone).slice(0, 9)
    for (const [k, n] of changing.entries()) change(n, `192.0.2.${50 + k}`)
    const head = newestHead()
    // Nine versions against a limit of two: the head names a table of its own counter or earlier.
    expect(head.versionsKey).toMatch(/^o:example\.com:e{32}:\d+:v$/)
    expect(head.bv!.changed.size).toBeLessThanOrEqual(2)
    const cold = view()
    for (const n of names) {
      const k = changing.indexOf(n)
      expect(rdata(await cold.lookup(n), n)).toBe(k >= 0 ? `192.0.2.${50 + k}` : '192.0.2.1')
    }
  })

  it('a head whose table is not visible yet is not taken: the reader keeps answering from what it holds', async () => {
    const [first, second, third] = spread(zone)
    change(first!, '192.0.2.70')
    change(second!, '192.0.2.71')
    const warm = view()
    for (const n of names) await warm.lookup(n)
    change(third!, '192.0.2.72') // a third bucket version: this head names a table
    const key = newestHead().versionsKey!
    const table = kv.data.get(key)!
    kv.delete(key)
    t += REVALIDATE_MS + 1
    // Still the head before: the changed name keeps its earlier answer, never a wrong bucket's.
    expect(rdata(await warm.lookup(third!), third!)).toBe('192.0.2.1')
    expect(rdata(await warm.lookup(first!), first!)).toBe('192.0.2.70')
    kv.put(key, table)
    t += REVALIDATE_MS + 1
    expect(rdata(await warm.lookup(third!), third!)).toBe('192.0.2.72')
    expect(rdata(await warm.lookup(first!), first!)).toBe('192.0.2.70')
  })

  it("a cold reader that cannot read the newest head's table takes an older complete head, never the newest with its short list", async () => {
    const [first, second, third] = spread(zone)
    change(first!, '192.0.2.80')
    change(second!, '192.0.2.81')
    change(third!, '192.0.2.82') // this head names a table and lists none of the three
    kv.delete(newestHead().versionsKey!)
    const cold = view()
    // The head before lists the first two changes itself.
    expect(rdata(await cold.lookup(first!), first!)).toBe('192.0.2.80')
    expect(rdata(await cold.lookup(second!), second!)).toBe('192.0.2.81')
    expect(rdata(await cold.lookup(third!), third!)).toBe('192.0.2.1')
  })
})
