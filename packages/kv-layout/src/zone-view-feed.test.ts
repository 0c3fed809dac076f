/**
 * KvZoneView with a zone-change feed: one poll for every held zone, named heads read in one bulk
 * get, versioned buckets (a retired one re-confirms the zone), the index's false positives.
 */
import {
  FEED_WINDOW_MS,
  FeedClient,
  ZoneIndex,
  type FeedAppend,
  type OfferedHead,
  type PollRequest,
} from '@edgedns/zone-feed'
import { beforeEach, describe, expect, it } from 'vitest'
import { headKey, headSlot, headVersionKey } from './head.ts'
import { HELD_ZONE_BYTES } from './held-head.ts'
import { indexKey } from './keys.ts'
import { KvZoneView } from './kv-zone-view.ts'
import { TestFeed } from './test-feed.ts'
import { FakeKv } from './test-fake-kv.ts'
import { a, ZoneWriter } from './test-zone-writer.ts'
import type { ZoneLookup } from './types.ts'

const REVALIDATE_MS = 1000
const rdata = (r: ZoneLookup | null, name: string): string | undefined =>
  r?.nodes.get(name)?.sets.A?.rdata[0]

/**
 * Appends that pass to `feed` until `hold()`, then wait; and a poller whose next reply, after
 * `offerHeld()`, offers the held heads (as a watch reply carries a builder's offer).
 */
function offerRig(feed: TestFeed) {
  const held: FeedAppend[] = []
  let holding = false
  let offered: OfferedHead[] = []
  return {
    appender: {
      append: (entries: FeedAppend[]) =>
        holding ? Promise.resolve(void held.push(...entries)) : feed.append(entries),
    },
    poller: {
      poll: async (request: PollRequest) => {
        const reply = await feed.poll(request)
        const o = offered
        offered = []
        return o.length > 0 ? { ...reply, offered: o } : reply
      },
    },
    hold: () => void (holding = true),
    offerHeld: () =>
      void (offered = held.map((e) => ({ zone: e.zone, id: e.id, n: e.n, head: e.head! }))),
  }
}

describe('KvZoneView with the zone feed', () => {
  let t: number
  let kv: FakeKv
  let feed: TestFeed
  let client: FeedClient
  let view: KvZoneView
  const zone = (name: string, id: string, retireGraceMs = 600_000, inlineHeads = false) =>
    new ZoneWriter(
      kv,
      name,
      { [`www.${name}`]: a('192.0.2.1'), [`x.${name}`]: a('192.0.2.2') },
      16,
      id.repeat(32),
      {
        versioned: true,
        feed,
        now: () => t,
        retireGraceMs,
        inlineHeads,
      }
    )

  beforeEach(() => {
    t = 0
    kv = new FakeKv()
    feed = new TestFeed(kv, () => t)
    client = new FeedClient(feed, {
      now: () => t,
      // Not counted with the view's reads.
      loadIndex: (key) => Promise.resolve(kv.bytes.get(key) ?? null),
    })
    view = new KvZoneView(kv, { now: () => t, revalidateMs: REVALIDATE_MS, feed: client })
  })

  it('one poll confirms every held zone, and the heads it names are read in one bulk get', async () => {
    const zones = ['a.test', 'b.test', 'c.test'].map((z, i) => zone(z, String(i + 1)))
    for (const z of zones) await view.lookup(`www.${z.name}`)
    for (const z of zones) {
      z.nodes.set(`www.${z.name}`, a('192.0.2.9'))
      z.head({ overlay: [[`www.${z.name}`, a('192.0.2.9')]] })
    }
    t += REVALIDATE_MS + 1
    kv.resetCounts()
    const polls = feed.polls
    const kept: Promise<unknown>[] = []
    const keepAlive = (p: Promise<unknown>) => void kept.push(p)
    // The poll runs in the background (refresh ahead); the named heads follow in one bulk get.
    await view.lookup('x.a.test', { keepAlive })
    await Promise.all(kept)
    expect(feed.polls - polls).toBe(1)
    expect(kv.keysRead[0]).toEqual(zones.map((z) => headVersionKey(z.name, z.meta.id, 2)))
    // and x's bucket, which the isolate did not hold
    expect(kv.calls).toBe(2)
    const answers = await Promise.all(zones.map((z) => view.lookup(`www.${z.name}`, { keepAlive })))
    expect(answers.map((r, i) => rdata(r, `www.${zones[i]!.name}`))).toEqual([
      '192.0.2.9',
      '192.0.2.9',
      '192.0.2.9',
    ])
    expect(kv.calls).toBe(2)
    expect(view.snapshot().feedCalls).toBe(client.stats.feedCalls)
  })

  it('a head the feed entry carries is taken without a KV read', async () => {
    const zones = ['a.test', 'b.test'].map((z, i) => zone(z, String(i + 1), 600_000, true))
    for (const z of zones) await view.lookup(`www.${z.name}`)
    for (const z of zones) {
      z.nodes.set(`www.${z.name}`, a('192.0.2.9'))
      z.head({ overlay: [[`www.${z.name}`, a('192.0.2.9')]] })
    }
    t += REVALIDATE_MS + 1
    kv.resetCounts()
    const kept: Promise<unknown>[] = []
    const keepAlive = (p: Promise<unknown>) => void kept.push(p)
    await view.lookup('www.a.test', { keepAlive })
    await Promise.all(kept)
    const answers = await Promise.all(zones.map((z) => view.lookup(`www.${z.name}`, { keepAlive })))
    expect(answers.map((r, i) => rdata(r, `www.${zones[i]!.name}`))).toEqual([
      '192.0.2.9',
      '192.0.2.9',
    ])
    expect(kv.calls).toBe(0)
  })

  it('a head offered to a watch is taken by the held zone from its text; nothing reads its versioned key', async () => {
    // Appends pass to the feed until held; then they wait (the entry comes after the offer).
    const rig = offerRig(feed)
    const { appender, poller } = rig
    client = new FeedClient(poller, {
      now: () => t,
      loadIndex: (key) => Promise.resolve(kv.bytes.get(key) ?? null),
    })
    view = new KvZoneView(kv, { now: () => t, revalidateMs: REVALIDATE_MS, feed: client })
    const writer = (name: string, id: string) =>
      new ZoneWriter(kv, name, { [`www.${name}`]: a('192.0.2.1') }, 16, id.repeat(32), {
        versioned: true,
        feed: appender,
        now: () => t,
        inlineHeads: true,
      })
    const [mine, other] = [writer('a.test', '1'), writer('b.test', '2')]
    expect(rdata(await view.lookup('www.a.test'), 'www.a.test')).toBe('192.0.2.1')
    rig.hold()
    for (const z of [mine, other]) {
      z.nodes.set(`www.${z.name}`, a('192.0.2.9'))
      const n = z.head({ overlay: [[`www.${z.name}`, a('192.0.2.9')]] })
      // Offered before the head is in KV: neither its versioned key nor its slot is there yet.
      kv.delete(headVersionKey(z.name, z.meta.id, n))
      kv.delete(headKey(z.name, headSlot(n)))
    }
    rig.offerHeld()
    t += REVALIDATE_MS + 1
    kv.resetCounts()
    const kept: Promise<unknown>[] = []
    const keepAlive = (p: Promise<unknown>) => void kept.push(p)
    await view.lookup('www.a.test', { keepAlive })
    await Promise.all(kept)
    expect(rdata(await view.lookup('www.a.test', { keepAlive }), 'www.a.test')).toBe('192.0.2.9')
    // The zone it did not hold is read as before the offer (its slots): still the old answer.
    expect(rdata(await view.lookup('www.b.test', { keepAlive }), 'www.b.test')).toBe('192.0.2.1')
    const versioned = [mine, other].map((z) => headVersionKey(z.name, z.meta.id, 2))
    expect(kv.keysRead.flat().filter((k) => versioned.includes(k))).toEqual([])
  })

  it('a zone holding an offered head and evicted for room is read again without its unwritten versioned key', async () => {
    // e1's appends wait until the test lets them through (its entry comes after the offer).
    const rig = offerRig(feed)
    const { appender, poller } = rig
    client = new FeedClient(poller, { now: () => t })
    view = new KvZoneView(kv, {
      now: () => t,
      revalidateMs: REVALIDATE_MS,
      feed: client,
      zoneCacheBytes: 3 * HELD_ZONE_BYTES + 1000,
    })
    const e1 = new ZoneWriter(
      kv,
      'e1.test',
      { 'www.e1.test': a('192.0.2.1') },
      16,
      '1'.repeat(32),
      {
        versioned: true,
        feed: appender,
        now: () => t,
        inlineHeads: true,
      }
    )
    const kept: Promise<unknown>[] = []
    const keepAlive = (p: Promise<unknown>) => void kept.push(p)
    await view.lookup('www.e1.test')
    // Long after e1's last entry: the feed's window no longer names it.
    t += FEED_WINDOW_MS + REVALIDATE_MS
    await view.lookup('www.e1.test', { keepAlive })
    await Promise.all(kept.splice(0))
    rig.hold()
    e1.nodes.set('www.e1.test', a('192.0.2.9'))
    const n = e1.head({ overlay: [['www.e1.test', a('192.0.2.9')]] })
    // Offered before head n is in KV: neither its versioned key nor its slot is there yet.
    kv.delete(headVersionKey('e1.test', e1.meta.id, n))
    kv.delete(headKey('e1.test', headSlot(n)))
    rig.offerHeld()
    t += REVALIDATE_MS + 1
    await view.lookup('www.e1.test', { keepAlive })
    await Promise.all(kept.splice(0))
    expect(rdata(await view.lookup('www.e1.test', { keepAlive }), 'www.e1.test')).toBe('192.0.2.9')
    // Other zones push e1 out.
    for (let i = 2; i < 12; i++) {
      const z = `e${i}.test`
      zone(z, i.toString(16))
      await view.lookup(`www.${z}`, { keepAlive })
      await Promise.all(kept.splice(0))
    }
    kv.resetCounts()
    await view.lookup('www.e1.test', { keepAlive })
    await Promise.all(kept.splice(0))
    const ofE1 = kv.keysRead.flat().filter((k) => /^[a-z]:e1\.test:/.test(k))
    // e1 was evicted (it is read again), and not through head n's versioned key.
    expect(ofE1.length).toBeGreaterThan(0)
    expect(ofE1).not.toContain(headVersionKey('e1.test', e1.meta.id, n))
  })

  it('a versioned bucket retired while the isolate held an older head: the zone is confirmed again and the name answered', async () => {
    const z = zone('example.com', 'a', 0)
    await view.lookup('example.com')
    feed.down = true
    // A pass rewrites x's bucket at a new version; the old version is retired at once.
    z.nodes.set('x.example.com', a('192.0.2.20'))
    z.writeBucket(z.bucket('x.example.com'))
    z.head()
    expect(kv.data.has(`b:example.com:16:${z.bucket('x.example.com')}:1`)).toBe(false)
    // Still within the confirmation window: the isolate answers from head 1, whose bucket is gone.
    const r = await view.lookup('x.example.com')
    expect(rdata(r, 'x.example.com')).toBe('192.0.2.20')
  })

  it('a name the index says is hosted but is not (a false positive) is read once, until the index changes', async () => {
    zone('example.com', 'a')
    kv.put(indexKey(9), ZoneIndex.build(['example.com', 'ghost.test']).encode())
    feed.index = { key: indexKey(9), seq: 1, zones: 2 }
    await client.confirm(t)
    await new Promise((r) => setTimeout(r, 0))
    expect(client.hosted('ghost.test')).toBe(true)
    kv.resetCounts()
    expect(await view.lookup('www.ghost.test')).toBeNull()
    expect(kv.calls).toBe(1)
    t += 60_000
    expect(await view.lookup('www.ghost.test')).toBeNull()
    expect(await view.lookup('other.ghost.test')).toBeNull()
    expect(kv.calls).toBe(1)
    // A newer index: asked again.
    kv.put(indexKey(10), ZoneIndex.build(['example.com', 'ghost.test']).encode())
    feed.index = { key: indexKey(10), seq: 2, zones: 2 }
    await client.confirm(t)
    await new Promise((r) => setTimeout(r, 0))
    expect(await view.lookup('www.ghost.test')).toBeNull()
    expect(kv.calls).toBe(2)
  })

  it('a delete entry forgets a held zone without a KV read', async () => {
    const z = zone('example.com', 'a')
    await view.lookup('www.example.com')
    z.deleteAll()
    t += REVALIDATE_MS + 1
    kv.resetCounts()
    expect(await view.lookup('www.example.com')).toBeNull()
    expect(kv.calls).toBe(0)
  })

  it('a zone looked up since the eviction hand passed it outlives zones nobody asks for', async () => {
    // Room for about three small zones.
    view = new KvZoneView(kv, {
      now: () => t,
      revalidateMs: REVALIDATE_MS,
      feed: client,
      zoneCacheBytes: 3 * 2048 + 1500,
    })
    const names = ['hot.test', ...Array.from({ length: 12 }, (_, i) => `c${i}.test`)]
    names.forEach((z, i) => zone(z, i.toString(16)))
    await view.lookup('www.hot.test')
    kv.resetCounts()
    for (const z of names.slice(1)) {
      await view.lookup(`www.${z}`)
      // The busy zone, asked between every other, is never read again.
      expect(rdata(await view.lookup('www.hot.test'), 'www.hot.test')).toBe('192.0.2.1')
    }
    expect(kv.keysRead.flat().filter((k) => k.includes('hot.test'))).toEqual([])
    expect(view.snapshot().zones).toBeLessThan(names.length)
  })

  it('a zone evicted for room is read again in one round trip: its versioned head and the name’s buckets', async () => {
    view = new KvZoneView(kv, {
      now: () => t,
      revalidateMs: REVALIDATE_MS,
      feed: client,
      zoneCacheBytes: 3 * HELD_ZONE_BYTES + 1000,
    })
    const names = ['e1.test', 'e2.test', 'e3.test', 'e4.test']
    const writers = names.map((z, i) => zone(z, String(i + 1)))
    for (let i = 0; i < 3; i++) writers[0]!.head()
    for (const z of names) await view.lookup(`www.${z}`)
    t += REVALIDATE_MS + 1
    kv.resetCounts()
    // e1 was evicted (oldest, not asked again): its head is read from its versioned key, not the
    // zone key and every slot, and the name's buckets at the version that head names with it.
    expect(rdata(await view.lookup('x.e1.test'), 'x.e1.test')).toBe('192.0.2.2')
    const e1 = writers[0]!
    // (x.e1.test itself is read as a candidate zone: this feed has no index.)
    const ofE1 = kv.keysRead.filter((r) => r.some((k) => /^[a-z]:e1\.test:/.test(k)))
    expect(ofE1).toHaveLength(1)
    const [head, ...buckets] = ofE1[0]!
    expect(head).toBe(headVersionKey('e1.test', e1.meta.id, e1.n))
    expect(buckets.length).toBeGreaterThan(0)
    for (const k of buckets) expect(k).toMatch(new RegExp(`^b:e1\\.test:.*:${e1.meta.id}$`))
  })
})
