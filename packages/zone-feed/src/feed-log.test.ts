import { describe, expect, it } from 'vitest'
import { FeedInputError } from './feed-append-check.ts'
import { FeedLog } from './feed-log.ts'
import type { FeedLogOptions } from './feed-log-options.ts'
import { ZoneSetDigest } from './zone-set-digest.ts'
import { MemoryFeedStore } from './memory-store.ts'
import { FEED_WINDOW_MS, type FeedAppend, type PollReply } from './protocol.ts'
import { ZoneIndex } from './zone-index.ts'

const head = (zone: string, n: number, id = `id-${zone}`): FeedAppend => ({
  zone,
  id,
  n,
  op: 'head',
})
const del = (zone: string, n: number, id = `id-${zone}`): FeedAppend => ({
  zone,
  id,
  n,
  op: 'delete',
})

function feed(options: FeedLogOptions = {}): { log: FeedLog; store: MemoryFeedStore } {
  const store = new MemoryFeedStore()
  return { store, log: new FeedLog(store, { newEpoch: () => 'epoch-1', ...options }) }
}

const T0 = 1_000_000_000
const names = (r: PollReply): string[] => r.entries.map((e) => `${e.zone}:${e.op}:${e.n}`)

describe('FeedLog append', () => {
  it('is idempotent on (zone, id, n, op): a repeated entry gets no sequence', () => {
    const { log, store } = feed()
    log.append([head('a.test', 1), head('b.test', 1)], T0)
    log.append([head('a.test', 1)], T0 + 1)
    const r = log.poll({ cursor: 0, epoch: 'epoch-1' }, T0 + 2)
    expect(r.seq).toBe(2)
    expect(store.entryCount).toBe(2)
    expect(names(r)).toEqual(['a.test:head:1', 'b.test:head:1'])
  })

  it('numbers entries in arrival order', () => {
    const { log } = feed()
    log.append([head('b.test', 1)], T0)
    log.append([head('a.test', 1)], T0)
    expect(log.poll({ cursor: 0, epoch: 'epoch-1' }, T0).entries.map((e) => e.seq)).toEqual([1, 2])
  })

  it('refuses a malformed entry and changes nothing', () => {
    const { log } = feed()
    expect(() =>
      log.append([head('a.test', 1), { zone: 'B.test', id: 'x', n: 1, op: 'head' }], T0)
    ).toThrow(FeedInputError)
    expect(() => log.append([{ zone: 'a.test', id: 'x', n: -1, op: 'head' }], T0)).toThrow(
      FeedInputError
    )
    expect(() =>
      log.append([{ zone: 'a.test', id: 'x', n: 1, op: 'create' as 'head' }], T0)
    ).toThrow(FeedInputError)
    expect(log.digest().seq).toBe(0)
  })
})

describe('FeedLog poll', () => {
  it('returns the newest entry per zone after the cursor', () => {
    const { log } = feed()
    log.append([head('a.test', 1), head('b.test', 1)], T0)
    const first = log.poll({ cursor: 0, epoch: 'epoch-1' }, T0)
    log.append([head('a.test', 2), head('a.test', 3)], T0 + 10)
    const r = log.poll({ cursor: first.seq, epoch: 'epoch-1' }, T0 + 20)
    expect(r.resync).toBe(false)
    expect(names(r)).toEqual(['a.test:head:3'])
    expect(r.entries[0]!.seq).toBe(4)
    expect(log.poll({ cursor: r.seq, epoch: 'epoch-1' }, T0 + 20).entries).toEqual([])
  })

  it('never reports an older head than one it has: a late smaller n stays in the log only', () => {
    const { log, store } = feed()
    log.append([head('a.test', 5)], T0)
    const r1 = log.poll({ cursor: 0, epoch: 'epoch-1' }, T0)
    log.append([head('a.test', 4)], T0 + 1)
    expect(store.entryCount).toBe(2)
    const r2 = log.poll({ cursor: r1.seq, epoch: 'epoch-1' }, T0 + 2)
    expect(r2.seq).toBe(2)
    expect(r2.entries).toEqual([])
    expect(names(log.poll({ cursor: 0, epoch: 'epoch-1' }, T0 + 2))).toEqual(['a.test:head:5'])
  })

  it('reports a deletion, and a late head of the deleted id changes nothing', () => {
    const { log } = feed()
    log.append([head('a.test', 2)], T0)
    log.append([del('a.test', 2)], T0)
    log.append([head('a.test', 3)], T0)
    expect(names(log.poll({ cursor: 0, epoch: 'epoch-1' }, T0))).toEqual(['a.test:delete:2'])
    // The name created again under another id is a new zone.
    log.append([head('a.test', 1, 'id-new')], T0)
    const r = log.poll({ cursor: 0, epoch: 'epoch-1' }, T0)
    expect(r.entries).toMatchObject([{ zone: 'a.test', id: 'id-new', n: 1, op: 'head' }])
    // A late delete of the old id does not remove the new zone.
    log.append([del('a.test', 9)], T0)
    expect(log.poll({ cursor: 0, epoch: 'epoch-1' }, T0).entries).toMatchObject([
      { id: 'id-new', op: 'head' },
    ])
  })

  it('gives a first poll a resync with every zone changed within the window', () => {
    const { log } = feed()
    log.append([head('old.test', 1)], T0)
    log.append([head('new.test', 1)], T0 + FEED_WINDOW_MS)
    const r = log.poll({ cursor: null, epoch: null }, T0 + FEED_WINDOW_MS + 1)
    expect(r.resync).toBe(true)
    expect(r.epoch).toBe('epoch-1')
    expect(r.seq).toBe(2)
    expect(names(r)).toEqual(['new.test:head:1'])
  })

  it('resyncs a cursor of another epoch', () => {
    const { log } = feed()
    log.append([head('a.test', 1)], T0)
    const r = log.poll({ cursor: 1, epoch: 'epoch-0' }, T0 + 1)
    expect(r.resync).toBe(true)
    expect(names(r)).toEqual(['a.test:head:1'])
  })

  it('resyncs a cursor older than the entries kept, and one ahead of the log', () => {
    const { log } = feed({ keepMs: 1000 })
    for (let i = 1; i <= 5; i++) log.append([head(`z${i}.test`, 1)], T0 + i)
    expect(log.trim(T0 + 1003)).toBe(2)
    expect(log.poll({ cursor: 1, epoch: 'epoch-1' }, T0 + 1004).resync).toBe(true)
    const kept = log.poll({ cursor: 2, epoch: 'epoch-1' }, T0 + 1004)
    expect(kept.resync).toBe(false)
    expect(names(kept)).toEqual(['z3.test:head:1', 'z4.test:head:1', 'z5.test:head:1'])
    expect(log.poll({ cursor: 99, epoch: 'epoch-1' }, T0 + 1004).resync).toBe(true)
  })

  it('turns a reply over the cap into a resync', () => {
    const { log } = feed({ maxPollEntries: 3 })
    log.append([head('a.test', 1)], T0)
    const r0 = log.poll({ cursor: null, epoch: null }, T0)
    log.append(
      [1, 2, 3, 4].map((i) => head(`z${i}.test`, 1)),
      T0 + 1
    )
    const r = log.poll({ cursor: r0.seq, epoch: 'epoch-1' }, T0 + 2)
    expect(r.resync).toBe(true)
    expect(r.entries.length).toBeLessThanOrEqual(3)
    // The resync could not carry every change since the (absent) index: not complete.
    expect(r.complete).toBe(false)
  })
})

describe('FeedLog index', () => {
  it('compiles once the zone set changed by enough deltas or the index is old enough', () => {
    const { log } = feed({ indexDeltas: 3, indexMinAgeMs: 60_000 })
    log.reconcile([], T0)
    expect(log.indexDue(T0)).toBe(true)
    const first = log.compileIndex(T0)
    log.publishIndex(first, `ix:${first.version}`)
    expect(log.indexDue(T0)).toBe(false)
    log.append([head('a.test', 1), head('b.test', 1)], T0 + 1)
    // New heads of known zones are not deltas.
    log.append([head('a.test', 2), head('a.test', 3)], T0 + 1)
    expect(log.indexDue(T0 + 1)).toBe(false)
    expect(log.indexDue(T0 + 60_000)).toBe(true)
    log.append([del('b.test', 1)], T0 + 2)
    expect(log.indexDue(T0 + 2)).toBe(true)
    const c = log.compileIndex(T0 + 2)
    expect(c.version).toBeGreaterThan(first.version)
    expect(c.seq).toBe(5)
    const index = ZoneIndex.decode(c.bytes)
    expect([index.has('a.test'), index.has('b.test'), index.size]).toEqual([true, false, 1])
    log.publishIndex(c, `ix:${c.version}`)
    expect(log.poll({ cursor: null, epoch: null }, T0 + 3).index).toEqual({
      key: `ix:${c.version}`,
      seq: 5,
      zones: 1,
    })
  })

  it('gives a resync every change to the zone set after the index, also outside the window', () => {
    const { log } = feed()
    log.append([head('a.test', 1), head('b.test', 1)], T0)
    const c = log.compileIndex(T0)
    log.publishIndex(c, 'ix:1')
    log.append([head('c.test', 1), del('b.test', 1), head('a.test', 2)], T0 + 1)
    const later = T0 + 10 * FEED_WINDOW_MS
    log.append([head('d.test', 1)], later)
    const r = log.poll({ cursor: null, epoch: null }, later + 1)
    // a.test's new head is outside the window and not a delta; the others are deltas or recent.
    expect(names(r)).toEqual(['c.test:head:1', 'b.test:delete:1', 'd.test:head:1'])
  })

  it('never trims past the index: it asks for a new index first', () => {
    const { log, store } = feed({ maxEntries: 2, trimChunk: 100 })
    log.append([head('a.test', 1)], T0)
    const c = log.compileIndex(T0)
    log.publishIndex(c, 'ix:1')
    log.append([head('b.test', 1), head('c.test', 1), head('d.test', 1)], T0 + 1)
    // Two entries over the bound, but only the first is at or before the index.
    expect(log.trim(T0 + 2)).toBe(1)
    expect(store.entryCount).toBe(3)
    expect(log.indexDue(T0 + 2)).toBe(true)
    const c2 = log.compileIndex(T0 + 2)
    log.publishIndex(c2, 'ix:2')
    expect(log.trim(T0 + 3)).toBe(1)
    expect(store.entryCount).toBe(2)
    expect(log.poll({ cursor: 1, epoch: 'epoch-1' }, T0 + 3).resync).toBe(true)
  })
})

describe('FeedLog reconcile', () => {
  it('adds zones D1 serves as head n = 0, deletes zones it does not, and becomes complete', () => {
    const { log } = feed()
    log.append([head('kept.test', 3), head('gone.test', 2), head('moved.test', 1, 'old')], T0)
    expect(log.poll({ cursor: null, epoch: null }, T0).complete).toBe(false)
    log.reconcile(
      [
        { zone: 'kept.test', id: 'id-kept.test' },
        { zone: 'new.test', id: 'n1' },
        { zone: 'moved.test', id: 'new' },
      ],
      T0 + 1
    )
    const r = log.poll({ cursor: 3, epoch: 'epoch-1' }, T0 + 2)
    expect(r.complete).toBe(true)
    expect(r.entries).toMatchObject([
      { zone: 'new.test', id: 'n1', n: 0, op: 'head' },
      { zone: 'moved.test', id: 'new', n: 0, op: 'head' },
      { zone: 'gone.test', id: 'id-gone.test', n: 2, op: 'delete' },
    ])
    // A real head replaces the n = 0 placeholder; n = 0 again changes nothing.
    log.append([head('new.test', 1, 'n1')], T0 + 3)
    log.reconcile(
      [
        { zone: 'kept.test', id: 'id-kept.test' },
        { zone: 'new.test', id: 'n1' },
        { zone: 'moved.test', id: 'new' },
      ],
      T0 + 4
    )
    expect(names(log.poll({ cursor: r.seq, epoch: 'epoch-1' }, T0 + 5))).toEqual([
      'new.test:head:1',
    ])
  })

  it('leaves zones the feed learned about after the reconciliation began', () => {
    const { log } = feed()
    const { session } = log.reconcileBegin()
    // D1 was read before this zone existed; its builder appended meanwhile.
    log.append([head('fresh.test', 1)], T0)
    log.reconcileZones(session, [], T0 + 1)
    log.reconcileEnd(session, T0 + 1)
    expect(names(log.poll({ cursor: null, epoch: null }, T0 + 2))).toEqual(['fresh.test:head:1'])
  })

  it('refuses zones of a session that is not the one under way', () => {
    const { log } = feed()
    const { session } = log.reconcileBegin()
    log.reconcileBegin()
    expect(() => log.reconcileZones(session, [], T0)).toThrow(FeedInputError)
  })

  it('has a digest equal to the served set digested on the other side', () => {
    const { log } = feed()
    log.append([head('a.test', 1), head('b.test', 1), head('c.test', 1), del('c.test', 1)], T0)
    log.append([head('a.test', 1, 'other')], T0)
    const d = new ZoneSetDigest()
    d.add('b.test', 'id-b.test')
    d.add('a.test', 'other')
    expect(log.digest().digest).toBe(d.toString())
    expect(log.confirm(d.toString(), T0)).toBe(false) // not complete yet
    log.reconcile(
      [
        { zone: 'a.test', id: 'other' },
        { zone: 'b.test', id: 'id-b.test' },
      ],
      T0 + 1
    )
    expect(log.confirm(d.toString(), T0 + 2)).toBe(true)
    expect(log.digest().checkedAt).toBe(T0 + 2)
    expect(log.confirm(new ZoneSetDigest().toString(), T0 + 3)).toBe(false)
  })
})
