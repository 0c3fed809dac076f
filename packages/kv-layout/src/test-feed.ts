/**
 * @module Test support: an in-memory zone-change feed on a virtual clock, as the feed primary
 * serves it to a poller (`@edgedns/zone-feed` protocol): appends numbered in arrival order and
 * idempotent, polls answered with the newest entry per zone after the cursor (a first poll, or one
 * from another epoch: after the index's sequence, and every entry of the last `FEED_WINDOW_MS`),
 * and a compiled index written to KV
 * and announced in every reply. It can be taken down (polls fail) to test the fallback.
 */
import {
  FEED_WINDOW_MS,
  ZoneIndex,
  type FeedAppend,
  type FeedAppender,
  type FeedEntry,
  type FeedPoller,
  type IndexRef,
  type PollReply,
  type PollRequest,
} from '@edgedns/zone-feed'
import { indexKey } from './keys.ts'

interface Logged extends FeedEntry {
  at: number
}

export class TestFeed implements FeedPoller, FeedAppender {
  readonly epoch = 'test-epoch'
  /** Polls fail while true. */
  down = false
  /** Whether replies say the feed knows every served zone. */
  complete = true
  polls = 0
  index: IndexRef | null = null
  readonly #log: Logged[] = []
  readonly #served = new Map<string, string>()
  #seq = 0
  #indexVersion = 0

  /** Where the index is written. */
  readonly kv: { put(key: string, value: string | Uint8Array): void }
  /** The virtual clock. */
  readonly now: () => number

  constructor(kv: TestFeed['kv'], now: () => number) {
    this.kv = kv
    this.now = now
  }

  append(entries: FeedAppend[]): Promise<void> {
    for (const e of entries) {
      const seen = this.#log.some(
        (l) => l.zone === e.zone && l.id === e.id && l.n === e.n && l.op === e.op
      )
      if (seen) continue
      this.#log.push({ ...e, seq: ++this.#seq, at: this.now() })
      if (e.op === 'head') this.#served.set(e.zone, e.id)
      else if (this.#served.get(e.zone) === e.id) this.#served.delete(e.zone)
    }
    return Promise.resolve()
  }

  /** Compiles the served zones into an index, writes it to KV and announces it from now on. */
  publishIndex(): IndexRef {
    const key = indexKey(++this.#indexVersion)
    const index = ZoneIndex.build(this.#served.keys())
    this.kv.put(key, index.encode())
    this.index = { key, seq: this.#seq, zones: index.size }
    return this.index
  }

  poll(request: PollRequest): Promise<PollReply> {
    if (this.down) return Promise.reject(new Error('feed unreachable'))
    this.polls++
    this.index ??= this.publishIndex()
    const fresh = request.cursor === null || request.epoch !== this.epoch
    const after = fresh ? this.index.seq : request.cursor!
    // A first poll gets the index's deltas and the recent window (what a cold read must know of).
    const since = fresh ? this.now() - FEED_WINDOW_MS : Number.POSITIVE_INFINITY
    const newest = new Map<string, FeedEntry>()
    for (const { at, ...e } of this.#log)
      if (e.seq > after || at >= since) {
        newest.delete(e.zone)
        newest.set(e.zone, e)
      }
    return Promise.resolve({
      epoch: this.epoch,
      seq: this.#seq,
      entries: [...newest.values()],
      resync: fresh && request.cursor !== null,
      index: this.index,
      complete: this.complete,
    })
  }
}
