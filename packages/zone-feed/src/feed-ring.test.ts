import { describe, expect, it } from 'vitest'
import { FeedLog } from './feed-log.ts'
import { FeedRing, type FeedSource } from './feed-ring.ts'
import { MemoryFeedStore } from './memory-store.ts'
import type { FeedAppend } from './protocol.ts'

const head = (zone: string, n: number): FeedAppend => ({ zone, id: `id-${zone}`, n, op: 'head' })

function setup(ringOptions: { maxEntries?: number; maxPollEntries?: number } = {}) {
  let clock = 1_000_000
  let epoch = 'e1'
  let log = new FeedLog(new MemoryFeedStore(), { newEpoch: () => epoch })
  const calls = { tail: 0, poll: 0, watches: 0 }
  const source: FeedSource = {
    tail: async (q) => (calls.tail++, log.tail(q)),
    poll: async (q) => (
      calls.poll++,
      q.waitMs !== undefined && calls.watches++,
      log.poll(q, clock)
    ),
  }
  const ring = new FeedRing(source, { maxAgeMs: 0, now: () => clock, ...ringOptions })
  return {
    ring,
    calls,
    append: (e: FeedAppend[]) => log.append(e, clock),
    tick: (ms: number) => (clock += ms),
    restartPrimary: (next: string) => {
      epoch = next
      log = new FeedLog(new MemoryFeedStore(), { newEpoch: () => epoch })
    },
  }
}

describe('FeedRing', () => {
  it('answers a cursor within its ring without asking the primary to poll', async () => {
    const f = setup()
    const first = await f.ring.poll({ cursor: null, epoch: null })
    expect(f.calls.poll).toBe(1)
    f.append([head('a.test', 1), head('a.test', 2), head('b.test', 1)])
    const r = await f.ring.poll({ cursor: first.seq, epoch: first.epoch })
    expect(r.entries.map((e) => `${e.zone}:${e.n}`)).toEqual(['a.test:2', 'b.test:1'])
    expect(f.calls.poll).toBe(1)
  })

  it('forwards a cursor its ring no longer covers, and a reply over the cap', async () => {
    const f = setup({ maxEntries: 2, maxPollEntries: 2 })
    const first = await f.ring.poll({ cursor: null, epoch: null })
    f.append([head('a.test', 1), head('b.test', 1), head('c.test', 1)])
    // The ring keeps the last two: the first cursor is older than it.
    const r = await f.ring.poll({ cursor: first.seq, epoch: first.epoch })
    expect(r.entries.map((e) => e.zone)).toEqual(['a.test', 'b.test', 'c.test'])
    expect(f.ring.forwarded).toBe(2)
  })

  it('passes no watch on to the primary: a forwarded poll is a plain one', async () => {
    const f = setup({ maxEntries: 2, maxPollEntries: 2 })
    const first = await f.ring.poll({ cursor: null, epoch: null, waitMs: 1000 })
    f.append([head('a.test', 1), head('b.test', 1), head('c.test', 1)])
    await f.ring.poll({ cursor: first.seq, epoch: first.epoch, waitMs: 1000 })
    expect(f.ring.forwarded).toBe(2)
    expect(f.calls.watches).toBe(0)
  })

  it('starts over when the primary has another epoch', async () => {
    const f = setup()
    f.append([head('a.test', 1)])
    const first = await f.ring.poll({ cursor: null, epoch: null })
    f.restartPrimary('e2')
    f.append([head('b.test', 1)])
    const r = await f.ring.poll({ cursor: first.seq, epoch: first.epoch })
    expect(r.epoch).toBe('e2')
    expect(r.resync).toBe(true)
    expect(r.entries.map((e) => e.zone)).toEqual(['b.test'])
  })
})
