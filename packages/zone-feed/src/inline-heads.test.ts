import { describe, expect, it } from 'vitest'
import { FeedInputError } from './feed-append-check.ts'
import { FeedLog } from './feed-log.ts'
import { FeedRing } from './feed-ring.ts'
import { InlineHeads, REPLY_HEAD_CHARS } from './inline-heads.ts'
import { MemoryFeedStore } from './memory-store.ts'
import { FEED_HEAD_MAX_CHARS, type FeedAppend, type FeedEntry } from './protocol.ts'

const T0 = 1_000_000_000
const withHead = (zone: string, n: number, text = `head ${zone} ${n}`): FeedAppend => ({
  zone,
  id: `id-${zone}`,
  n,
  op: 'head',
  head: text,
})
const bare = (zone: string, n: number): FeedAppend => ({ zone, id: `id-${zone}`, n, op: 'head' })
const heads = (entries: FeedEntry[]): Record<string, string | undefined> =>
  Object.fromEntries(entries.map((e) => [`${e.zone}:${e.n}`, e.head]))

function feed(): FeedLog {
  return new FeedLog(new MemoryFeedStore(), { newEpoch: () => 'epoch-1' })
}

describe('heads riding feed entries', () => {
  it('a poll and a tail carry the head appended with the zone’s effective entry', () => {
    const log = feed()
    log.append([withHead('a.test', 1), withHead('b.test', 1)], T0)
    const first = log.poll({ cursor: 0, epoch: 'epoch-1' }, T0 + 1)
    expect(heads(first.entries)).toEqual({
      'a.test:1': 'head a.test 1',
      'b.test:1': 'head b.test 1',
    })
    const tail = log.tail({ after: 0, epoch: 'epoch-1' })
    expect(heads(tail.entries)).toEqual(heads(first.entries))
  })

  it('a newer entry without a head leaves no head behind, and an older entry changes nothing', () => {
    const log = feed()
    log.append([withHead('a.test', 2)], T0)
    log.append([withHead('a.test', 1, 'stale')], T0 + 1)
    expect(heads(log.poll({ cursor: 0, epoch: 'epoch-1' }, T0 + 2).entries)).toEqual({
      'a.test:2': 'head a.test 2',
    })
    log.append([bare('a.test', 3)], T0 + 3)
    expect(heads(log.poll({ cursor: 0, epoch: 'epoch-1' }, T0 + 4).entries)).toEqual({
      'a.test:3': undefined,
    })
  })

  it('a feed object that restarts sends its entries without heads (memory only)', () => {
    const store = new MemoryFeedStore()
    new FeedLog(store, { newEpoch: () => 'epoch-1' }).append([withHead('a.test', 1)], T0)
    const restarted = new FeedLog(store, { newEpoch: () => 'epoch-1' })
    const r = restarted.poll({ cursor: 0, epoch: 'epoch-1' }, T0 + 1)
    expect(r.entries.map((e) => [e.zone, e.n, e.head])).toEqual([['a.test', 1, undefined]])
  })

  it('one reply carries at most REPLY_HEAD_CHARS of head text', () => {
    const log = feed()
    const big = 'x'.repeat(FEED_HEAD_MAX_CHARS)
    const zones = Math.ceil(REPLY_HEAD_CHARS / FEED_HEAD_MAX_CHARS) + 5
    log.append(
      Array.from({ length: zones }, (_, i) => withHead(`z${i}.test`, 1, big)),
      T0
    )
    const r = log.poll({ cursor: 0, epoch: 'epoch-1' }, T0 + 1)
    const carried = r.entries.filter((e) => e.head !== undefined).length
    expect(r.entries).toHaveLength(zones)
    expect(carried).toBe(Math.floor(REPLY_HEAD_CHARS / FEED_HEAD_MAX_CHARS))
  })

  it('refuses a head that is too long, on a delete, or on counter 0', () => {
    const log = feed()
    const long = withHead('a.test', 1, 'x'.repeat(FEED_HEAD_MAX_CHARS + 1))
    expect(() => log.append([long], T0)).toThrow(FeedInputError)
    expect(() => log.append([{ ...withHead('a.test', 1), op: 'delete' }], T0)).toThrow(
      FeedInputError
    )
    expect(() => log.append([withHead('a.test', 0)], T0)).toThrow(FeedInputError)
    expect(log.poll({ cursor: 0, epoch: 'epoch-1' }, T0).entries).toEqual([])
  })

  it('a replica’s ring passes the heads on to isolates', async () => {
    const log = feed()
    const ring = new FeedRing(
      { tail: async (q) => log.tail(q), poll: async (q) => log.poll(q, T0) },
      { maxAgeMs: 0, now: () => T0 }
    )
    const first = await ring.poll({ cursor: null, epoch: null })
    log.append([withHead('a.test', 1), bare('b.test', 1)], T0)
    const r = await ring.poll({ cursor: first.seq, epoch: first.epoch })
    expect(heads(r.entries)).toEqual({ 'a.test:1': 'head a.test 1', 'b.test:1': undefined })
  })
})

describe('InlineHeads', () => {
  it('keeps the newest heads within its characters, the oldest going first', () => {
    const kept = new InlineHeads(10)
    kept.take({ zone: 'a', id: 'i', n: 1, op: 'head', head: 'aaaa' })
    kept.take({ zone: 'b', id: 'i', n: 1, op: 'head', head: 'bbbb' })
    kept.take({ zone: 'c', id: 'i', n: 1, op: 'head', head: 'cccc' })
    const budget = { chars: 100 }
    const entry = (zone: string): FeedEntry => ({ seq: 1, zone, id: 'i', n: 1, op: 'head' })
    expect(kept.attach(entry('a'), budget).head).toBeUndefined()
    expect(kept.attach(entry('b'), budget).head).toBe('bbbb')
    expect(kept.attach(entry('c'), budget).head).toBe('cccc')
    expect(kept.chars).toBe(8)
    // Another counter or id than the kept head's: nothing attached.
    expect(kept.attach({ ...entry('c'), n: 2 }, budget).head).toBeUndefined()
    expect(kept.attach({ ...entry('c'), id: 'j' }, budget).head).toBeUndefined()
  })
})
