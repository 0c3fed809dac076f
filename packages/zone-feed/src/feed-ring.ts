/**
 * @module A feed replica's memory: a ring of the effective entries it pulled from the primary
 * (`tail`), answering isolates' polls so that the primary sees only the replicas' pulls.
 *
 * A poll is answered from the ring once the ring's last pull started less than `maxAgeMs` before
 * the poll (else one pull runs first, shared by every poll waiting meanwhile). The ring covers the
 * sequences after `from`; a cursor older than that, a first poll, another epoch or a reply over the
 * cap is forwarded to the primary, whose reply is then what the isolate gets.
 */
import type { TailReply, TailRequest } from './feed-replies.ts'
import type { FeedEntry, IndexRef, PollReply, PollRequest } from './protocol.ts'
import { FEED_WINDOW_MS } from './protocol.ts'
import { InlineHeads, REPLY_HEAD_CHARS } from './inline-heads.ts'

/** What a replica calls on the primary. */
export interface FeedSource {
  tail(request: TailRequest): Promise<TailReply>
  poll(request: PollRequest): Promise<PollReply>
}

/** Tail pages per pull: beyond, the ring answers with what it has. */
const PAGES_PER_PULL = 20

export interface FeedRingOptions {
  /** A poll is answered from a pull that started less than this long before it (ms; 0 = always pull). */
  maxAgeMs: number
  /** Most entries kept (default 50,000). */
  maxEntries?: number
  /** Entries are kept this long after they were pulled (default `FEED_WINDOW_MS`). */
  keepMs?: number
  /** Entries per poll reply before the poll goes to the primary (default 10,000). */
  maxPollEntries?: number
  now?: () => number
}

interface Pull {
  startedAt: number
  done: Promise<void>
}

export class FeedRing {
  readonly #source: FeedSource
  readonly #maxAge: number
  readonly #maxEntries: number
  readonly #keepMs: number
  readonly #maxPoll: number
  readonly #now: () => number

  #epoch: string | null = null
  /** Every effective change with seq in (from, seq] is in the ring. */
  #from = 0
  #seq = 0
  #index: IndexRef | null = null
  #complete = false
  #entries: FeedEntry[] = []
  #pulledAt: number[] = []
  #head = 0
  /** Zone → seq of its newest entry in the ring. */
  #latest = new Map<string, number>()
  /** Heads that ride the newest entries (memory only, bounded). */
  readonly #heads = new InlineHeads()
  #lastPull: number | null = null
  #inflight: Pull | null = null
  #queued: Promise<void> | null = null

  /** Pulls from the primary (tests count them). */
  pulls = 0
  /** Polls forwarded to the primary. */
  forwarded = 0

  constructor(source: FeedSource, options: FeedRingOptions) {
    this.#source = source
    this.#maxAge = Math.max(0, options.maxAgeMs)
    this.#maxEntries = options.maxEntries ?? 50_000
    this.#keepMs = options.keepMs ?? FEED_WINDOW_MS
    this.#maxPoll = options.maxPollEntries ?? 10_000
    this.#now = options.now ?? Date.now
  }

  /** Entries the ring holds (including superseded ones not yet trimmed). */
  get size(): number {
    return this.#entries.length - this.#head
  }

  async poll(request: PollRequest): Promise<PollReply> {
    await this.#fresh(this.#now(), false)
    const cursor = request?.cursor ?? null
    if (cursor === null || this.#epoch === null || request.epoch !== this.#epoch)
      return this.#forward(request)
    if (cursor > this.#seq) {
      // The isolate has seen more than the ring (from another replica or the primary): catch up.
      await this.#fresh(this.#now(), true)
      if (request.epoch !== this.#epoch || cursor > this.#seq) return this.#forward(request)
    }
    if (cursor < this.#from) return this.#forward(request)
    const entries = this.#after(cursor)
    if (entries === null) return this.#forward(request)
    return {
      epoch: this.#epoch,
      seq: this.#seq,
      entries,
      resync: false,
      index: this.#index,
      complete: this.#complete,
    }
  }

  /** A plain poll of the primary: replicas answer at once, so a watch is never passed on. */
  #forward(request: PollRequest): Promise<PollReply> {
    this.forwarded++
    return this.#source.poll({ cursor: request.cursor, epoch: request.epoch })
  }

  /** Newest entry per zone after `cursor`, or null when more than the cap. */
  #after(cursor: number): FeedEntry[] | null {
    let lo = this.#head
    let hi = this.#entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#entries[mid]!.seq <= cursor) lo = mid + 1
      else hi = mid
    }
    const out: FeedEntry[] = []
    const budget = { chars: REPLY_HEAD_CHARS }
    for (let i = lo; i < this.#entries.length; i++) {
      const e = this.#entries[i]!
      if (this.#latest.get(e.zone) !== e.seq) continue
      if (out.length === this.#maxPoll) return null
      out.push(this.#heads.attach({ ...e }, budget))
    }
    return out
  }

  /** Ensures a pull that started less than `maxAgeMs` before `now` (or, with `force`, one started at or after it). */
  #fresh(now: number, force: boolean): Promise<void> {
    const recent = (t: number): boolean => (force ? t >= now : now - t < this.#maxAge)
    if (this.#lastPull !== null && recent(this.#lastPull)) return Promise.resolve()
    const f = this.#inflight
    if (f === null) return this.#start()
    if (recent(f.startedAt)) return f.done
    // The pull under way started too early for this poll: one more after it, shared.
    this.#queued ??= f.done
      .catch(() => {})
      .then(() => {
        this.#queued = null
        return this.#inflight === null ? this.#start() : this.#inflight.done
      })
    return this.#queued
  }

  #start(): Promise<void> {
    const startedAt = this.#now()
    const pull: Pull = {
      startedAt,
      done: this.#pull().then(
        () => {
          this.#lastPull = Math.max(this.#lastPull ?? startedAt, startedAt)
          if (this.#inflight === pull) this.#inflight = null
        },
        (e: unknown) => {
          if (this.#inflight === pull) this.#inflight = null
          throw e
        }
      ),
    }
    this.#inflight = pull
    return pull.done
  }

  async #pull(): Promise<void> {
    this.pulls++
    for (let page = 0; page < PAGES_PER_PULL; page++) {
      const reply = await this.#source.tail({
        after: this.#epoch === null ? null : this.#seq,
        epoch: this.#epoch,
      })
      if (reply.reset || reply.epoch !== this.#epoch) this.#reset(reply.epoch, reply.seq)
      else this.#add(reply.entries, reply.seq)
      this.#index = reply.index
      this.#complete = reply.complete
      if (!reply.more) break
    }
    this.#trim()
  }

  #reset(epoch: string, seq: number): void {
    this.#epoch = epoch
    this.#from = seq
    this.#seq = seq
    this.#entries = []
    this.#pulledAt = []
    this.#head = 0
    this.#latest.clear()
  }

  #add(entries: FeedEntry[], seq: number): void {
    const at = this.#now()
    for (const e of entries) {
      if (e.seq <= this.#seq) continue
      this.#entries.push({ seq: e.seq, zone: e.zone, id: e.id, n: e.n, op: e.op })
      this.#heads.take(e)
      this.#pulledAt.push(at)
      this.#latest.set(e.zone, e.seq)
    }
    this.#seq = Math.max(this.#seq, seq)
  }

  #trim(): void {
    const oldest = this.#now() - this.#keepMs
    while (
      this.#head < this.#entries.length &&
      (this.#entries.length - this.#head > this.#maxEntries || this.#pulledAt[this.#head]! < oldest)
    ) {
      const e = this.#entries[this.#head]!
      if (this.#latest.get(e.zone) === e.seq) this.#latest.delete(e.zone)
      this.#from = e.seq
      this.#head++
    }
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head)
      this.#pulledAt = this.#pulledAt.slice(this.#head)
      this.#head = 0
    }
  }
}
