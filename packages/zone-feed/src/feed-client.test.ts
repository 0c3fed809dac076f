import { describe, expect, it } from 'vitest'
import { FeedClient, type FeedChange } from './feed-client.ts'
import { FEED_WINDOW_MS, type FeedEntry, type PollReply, type PollRequest } from './protocol.ts'
import { ZoneIndex } from './zone-index.ts'

/** A poller answering from a script; each poll can be held until released. */
class FakePoller {
  requests: PollRequest[] = []
  reply: Partial<PollReply> = {}
  failNext = 0
  hold = false
  readonly held: (() => void)[] = []
  /** Virtual time a poll takes. */
  constructor(
    readonly clock: { t: number },
    readonly tookMs = 0
  ) {}

  async poll(request: PollRequest): Promise<PollReply> {
    this.requests.push(request)
    if (this.hold) await new Promise<void>((r) => this.held.push(r))
    this.clock.t += this.tookMs
    if (this.failNext > 0) {
      this.failNext--
      throw new Error('feed unreachable')
    }
    return {
      epoch: 'e1',
      seq: 10,
      entries: [],
      resync: false,
      index: null,
      complete: true,
      ...this.reply,
    }
  }
}

const entry = (
  zone: string,
  n: number,
  seq: number,
  op: 'head' | 'delete' = 'head'
): FeedEntry => ({
  zone,
  id: `id-${zone}`,
  n,
  op,
  seq,
})

function setup(tookMs = 0, index?: Map<string, Uint8Array>, pollTimeoutMs = 50) {
  const clock = { t: 1000 }
  const poller = new FakePoller(clock, tookMs)
  const client = new FeedClient(poller, {
    now: () => clock.t,
    retryMs: 500,
    pollTimeoutMs,
    ...(index ? { loadIndex: (key: string) => Promise.resolve(index.get(key) ?? null) } : {}),
  })
  return { clock, poller, client }
}

describe('FeedClient', () => {
  it('concurrent callers share one poll, and confirmedAt is the time that poll started', async () => {
    const { clock, poller, client } = setup(30)
    const results = await Promise.all([
      client.confirm(900),
      client.confirm(950),
      client.confirm(1000),
    ])
    expect(results).toEqual([true, true, true])
    expect(client.stats.feedCalls).toBe(1)
    expect(client.confirmedAt).toBe(1000)
    expect(clock.t).toBe(1030)
    expect(poller.requests).toEqual([{ cursor: null, epoch: null }])
    // The next poll carries the cursor and epoch of the reply.
    await client.confirm(1030)
    expect(poller.requests[1]).toEqual({ cursor: 10, epoch: 'e1' })
  })

  it('a caller does not rely on a poll another request started that never settles: it polls itself', async () => {
    const { poller, client } = setup(0, undefined, 300)
    poller.hold = true
    const stuck = client.confirm(900)
    poller.hold = false
    const started = Date.now()
    expect(await client.confirm(900)).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(90)
    expect(client.stats.feedCalls).toBe(2)
    poller.held.forEach((r) => r())
    await stuck
  })

  it('keeps a watch open while serving: an entry it brings is known before any poll is due', async () => {
    const clock = { t: 1000 }
    const poller = new FakePoller(clock)
    const client = new FeedClient(poller, { now: () => clock.t, watchMs: 1000 })
    const seen: FeedChange[] = []
    client.subscribe((c) => seen.push(c))
    const kept: Promise<unknown>[] = []
    await client.confirm(1000)
    poller.hold = true
    // Confirmed just now: no poll is due, but a watch is opened (and only one).
    client.refreshAhead(1000, 10, (p) => kept.push(p))
    client.refreshAhead(1001, 10, (p) => kept.push(p))
    expect(poller.requests.slice(1)).toEqual([{ cursor: 10, epoch: 'e1', waitMs: 1000 }])
    // The primary answers the watch when an entry is appended.
    poller.reply = { seq: 11, entries: [entry('a.test', 2, 11)] }
    poller.hold = false
    poller.held.forEach((r) => r())
    await Promise.all(kept)
    expect(client.window('a.test')).toEqual({ id: 'id-a.test', n: 2, op: 'head' })
    expect(seen.at(-1)?.entries.map((e) => e.seq)).toEqual([11])
    // A poll that meanwhile gave the same entry: the watch's copy is not told again.
    poller.reply = { seq: 11, entries: [entry('a.test', 2, 11)] }
    client.refreshAhead(1002, 10, (p) => kept.push(p))
    await Promise.all(kept)
    expect(seen.at(-1)?.entries).toEqual([])
  })

  it('counts a watch as confirmation up to the time the primary answered it (its heldMs, at most the wait)', async () => {
    const clock = { t: 1000 }
    const poller = new FakePoller(clock)
    const client = new FeedClient(poller, { now: () => clock.t, watchMs: 1000 })
    const kept: Promise<unknown>[] = []
    await client.confirm(1000)
    poller.hold = true
    client.refreshAhead(1000, 10, (p) => kept.push(p))
    // The primary held the watch 400 ms, then an entry arrived.
    clock.t = 1405
    poller.reply = { seq: 11, entries: [entry('a.test', 2, 11)], heldMs: 400 }
    poller.hold = false
    poller.held.forEach((r) => r())
    await Promise.all(kept)
    expect(client.confirmedAt).toBe(1400)
    // A query arriving now needs no poll of its own.
    expect(await client.confirm(1400)).toBe(true)
    expect(poller.requests).toHaveLength(2)
    // A held time beyond the wait asked for is not believed past the wait.
    poller.hold = true
    client.refreshAhead(1405, 10, (p) => kept.push(p))
    clock.t = 9000
    poller.reply = { seq: 12, entries: [], heldMs: 60_000 }
    poller.hold = false
    poller.held.forEach((r) => r())
    await Promise.all(kept)
    expect(client.confirmedAt).toBe(2405)
  })

  it('a failed poll answers false, and no poll is started again within retryMs', async () => {
    const { clock, poller, client } = setup()
    poller.failNext = 1
    expect(await client.confirm(1000)).toBe(false)
    expect(client.failing).toBe(true)
    clock.t += 400
    expect(await client.confirm(1400)).toBe(false)
    expect(client.stats.feedCalls).toBe(1)
    clock.t += 200
    expect(await client.confirm(1600)).toBe(true)
    expect(client.failing).toBe(false)
    expect(client.stats.feedCalls).toBe(2)
  })

  it('a poll that does not settle within pollTimeoutMs counts as failed', async () => {
    const { poller, client } = setup()
    poller.hold = true
    expect(await client.confirm(1000)).toBe(false)
    expect(client.failing).toBe(true)
    poller.held.forEach((r) => r())
  })

  it('the window keeps the newest entry per zone for FEED_WINDOW_MS', async () => {
    const { clock, poller, client } = setup()
    poller.reply = { entries: [entry('a.test', 3, 5), entry('b.test', 1, 6)] }
    await client.confirm(1000)
    poller.reply = { seq: 11, entries: [entry('a.test', 4, 11)] }
    clock.t += 1000
    await client.confirm(clock.t)
    expect(client.window('a.test')).toEqual({ id: 'id-a.test', n: 4, op: 'head' })
    expect(client.window('b.test')?.n).toBe(1)
    clock.t += FEED_WINDOW_MS - 500
    expect(client.window('b.test')).toBeUndefined()
    expect(client.window('a.test')?.n).toBe(4)
    expect(client.window('c.test')).toBeUndefined()
  })

  it('hosted: unknown without an index or before the feed is complete, then index plus deltas, swapped for a newer index', async () => {
    const indexes = new Map([
      ['ix:1', ZoneIndex.build(['a.test', 'b.test']).encode()],
      ['ix:2', ZoneIndex.build(['a.test', 'c.test', 'd.test']).encode()],
    ])
    const { clock, poller, client } = setup(0, indexes)
    const changes: FeedChange[] = []
    client.subscribe((c) => changes.push(c))
    expect(client.hosted('a.test')).toBeUndefined()
    poller.reply = { complete: false, index: { key: 'ix:1', seq: 10, zones: 2 } }
    await client.confirm(1000)
    await Promise.resolve()
    await Promise.resolve()
    expect(client.index?.key).toBe('ix:1')
    expect(client.hosted('a.test')).toBeUndefined()
    // Complete now: deltas after the index's sequence add and remove zones.
    poller.reply = {
      seq: 13,
      complete: true,
      index: { key: 'ix:1', seq: 10, zones: 2 },
      entries: [
        entry('c.test', 1, 11),
        entry('b.test', 4, 12, 'delete'),
        entry('x.y.z.test', 1, 13),
      ],
    }
    clock.t += 10
    await client.confirm(clock.t)
    expect(client.hosted('a.test')).toBe(true)
    expect(client.hosted('b.test')).toBe(false)
    expect(client.hosted('c.test')).toBe(true)
    expect(client.hosted('x.y.z.test')).toBe(true)
    expect(client.hasLabelCount(4)).toBe(true)
    expect(client.hosted('nope.test')).toBe(false)
    // A newer index including c (seq 11) but not the later deltas: those are kept.
    poller.reply = {
      seq: 14,
      index: { key: 'ix:2', seq: 11, zones: 3 },
      entries: [entry('d.test', 2, 14, 'delete')],
    }
    clock.t += 10
    await client.confirm(clock.t)
    await new Promise((r) => setTimeout(r, 0))
    expect(client.index?.key).toBe('ix:2')
    expect(changes.at(-1)?.indexChanged).toBe(true)
    expect(client.hosted('c.test')).toBe(true)
    expect(client.hosted('b.test')).toBe(false)
    expect(client.hosted('d.test')).toBe(false)
    expect(client.hosted('x.y.z.test')).toBe(true)
    expect(client.hasLabelCount(4)).toBe(true)
  })

  it('listeners hear of a poll before it counts as a confirmation, and a resync clears the window', async () => {
    const { clock, poller, client } = setup()
    const seen: { change: FeedChange; confirmedAt: number }[] = []
    client.subscribe((change) => seen.push({ change, confirmedAt: client.confirmedAt }))
    poller.reply = { entries: [entry('a.test', 2, 9)] }
    await client.confirm(1000)
    expect(seen[0]!.confirmedAt).toBe(Number.NEGATIVE_INFINITY)
    expect(seen[0]!.change.entries.map((e) => e.zone)).toEqual(['a.test'])
    poller.reply = { epoch: 'e2', seq: 3, entries: [entry('b.test', 1, 2)] }
    clock.t += 10
    await client.confirm(clock.t)
    expect(seen[1]!.change.resync).toBe(true)
    expect(client.window('a.test')).toBeUndefined()
    expect(client.window('b.test')?.n).toBe(1)
    expect(poller.requests.at(-1)).toEqual({ cursor: 10, epoch: 'e1' })
    await client.confirm(clock.t + 1)
    expect(poller.requests.at(-1)).toEqual({ cursor: 3, epoch: 'e2' })
  })

  it('refreshAhead polls in the background once the last success is older than the margin, one at a time', async () => {
    const { clock, client } = setup()
    await client.confirm(1000)
    const kept: Promise<unknown>[] = []
    clock.t += 400
    client.refreshAhead(clock.t, 500, (p) => kept.push(p))
    expect(kept).toHaveLength(0)
    clock.t += 200
    client.refreshAhead(clock.t, 500, (p) => kept.push(p))
    client.refreshAhead(clock.t, 500, (p) => kept.push(p))
    expect(kept).toHaveLength(1)
    await Promise.all(kept)
    expect(client.confirmedAt).toBe(1600)
    expect(client.stats.feedCalls).toBe(2)
  })
})
