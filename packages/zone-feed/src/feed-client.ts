/**
 * @module The isolate's side of the zone-change feed: one poll at a time (shared by every query
 * that needs it), the cursor and epoch, when the feed last confirmed everything, a window of what
 * it said lately about any zone, and the hosted-zone index with the deltas the feed gave since it.
 *
 * No Cloudflare bindings: the poller (a Durable Object stub in the DoH worker) and the index
 * loader (a KV read) are passed in.
 *
 * Promises started by another request may never settle in Workers (that request ended first and
 * its continuations never run), so a caller joins a poll in flight for at most `SHARED_WAIT_MS`,
 * and only one that started less than that long ago; otherwise it polls for itself.
 */
import {
  FEED_WINDOW_MS,
  type FeedEntry,
  type FeedOp,
  type FeedPoller,
  type IndexRef,
  type OfferedHead,
  type PollReply,
} from './protocol.ts'
import { labelCount, ZoneIndex } from './zone-index.ts'

/** Longest a caller waits for a poll another caller started before polling itself. */
export const SHARED_WAIT_MS = 100

export type KeepAlive = (promise: Promise<unknown>) => void

/** What one poll changed, told to listeners before the poll counts as confirmation. */
export interface FeedChange {
  /** Newest entry per zone the reply carried (after a resync: the feed's recent window). */
  entries: FeedEntry[]
  /** The feed restarted or the cursor was too old: whatever the isolate holds may be stale. */
  resync: boolean
  /** A newer index was loaded: every "not hosted" answer may have changed. */
  indexChanged: boolean
  /** Keeps the request that started the poll alive for follow-up reads (background polls only). */
  keepAlive?: KeepAlive
  /** Heads offered before their keys are written (watch replies): for zones the isolate holds only. */
  offered?: OfferedHead[]
}

export interface FeedClientOptions {
  /** Reads a compiled index (`IndexRef.key`) from KV; null when the key is not there. */
  loadIndex?: (key: string) => Promise<Uint8Array | null>
  /** After a failed poll, none is started for this long (callers use their fallback meanwhile); default 1000 ms. */
  retryMs?: number
  /** A poll not settled after this long counts as failed; default 2000 ms. */
  pollTimeoutMs?: number
  /**
   * Keep a watch open (a poll the primary holds until an entry arrives, at most this long) while
   * the isolate serves, so a change is known as it is appended, not at the next poll; 0 (the
   * default): no watch. Only the primary holds watches.
   */
  watchMs?: number
  now?: () => number
}

export interface FeedClientStats {
  /** Polls started (a feed call each). */
  feedCalls: number
  feedFailures: number
  resyncs: number
  indexLoads: number
}

interface WindowEntry {
  id: string
  n: number
  op: FeedOp
  at: number
}

type Settled<T> = { kind: 'value'; value: T } | { kind: 'failed' } | { kind: 'timeout' }

/** A promise's outcome, or `timeout` after `ms`. */
export function settledWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<Settled<T>>(
    (resolve) => (timer = setTimeout(() => resolve({ kind: 'timeout' }), ms))
  )
  const outcome = promise.then(
    (value): Settled<T> => ({ kind: 'value', value }),
    (): Settled<T> => ({ kind: 'failed' })
  )
  return Promise.race([outcome, timeout]).finally(() => clearTimeout(timer))
}

export class FeedClient {
  readonly #poller: FeedPoller
  readonly #loadIndex: ((key: string) => Promise<Uint8Array | null>) | undefined
  readonly #retryMs: number
  readonly #pollTimeoutMs: number
  readonly #watchMs: number
  readonly #now: () => number
  /** The watch open, with its start (null: none). */
  #watch: { startedAt: number } | null = null
  #cursor: number | null = null
  #epoch: string | null = null
  #confirmedAt = Number.NEGATIVE_INFINITY
  #failedAt = Number.NEGATIVE_INFINITY
  #inflight: { promise: Promise<boolean>; startedAt: number } | null = null
  /** Zone → newest entry received, in arrival order (the oldest first). */
  readonly #window = new Map<string, WindowEntry>()
  #complete = false
  #index: ZoneIndex | null = null
  #indexRef: IndexRef | null = null
  #indexLoading: string | null = null
  /** Entries after the loaded index's sequence (all entries while none is loaded), oldest first. */
  #deltas: FeedEntry[] = []
  readonly #added = new Set<string>()
  readonly #removed = new Set<string>()
  /** Label counts of `added`, with how many names have each. */
  readonly #addedLabels = new Map<number, number>()
  readonly #listeners = new Set<(change: FeedChange) => void>()
  readonly stats: FeedClientStats = { feedCalls: 0, feedFailures: 0, resyncs: 0, indexLoads: 0 }

  constructor(poller: FeedPoller, options: FeedClientOptions = {}) {
    this.#poller = poller
    this.#loadIndex = options.loadIndex
    this.#retryMs = options.retryMs ?? 1000
    this.#pollTimeoutMs = options.pollTimeoutMs ?? 2000
    this.#watchMs = options.watchMs ?? 0
    this.#now = options.now ?? Date.now
  }

  /** Start time of the last successful poll: nothing the feed had then is unknown here. */
  get confirmedAt(): number {
    return this.#confirmedAt
  }

  /** Whether the last poll failed (and no later one succeeded). */
  get failing(): boolean {
    return this.#failedAt > this.#confirmedAt
  }

  /** Calls `listener` with what each poll changed, before the poll counts as a confirmation. */
  subscribe(listener: (change: FeedChange) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Makes sure a poll that started at or after `floor` succeeded: true once one did, false when
   * the feed cannot say (a poll failed or timed out, or one failed less than `retryMs` ago).
   */
  async confirm(floor: number, keepAlive?: KeepAlive): Promise<boolean> {
    let joined = false
    for (;;) {
      if (this.#confirmedAt >= floor) return true
      const now = this.#now()
      if (this.failing && now - this.#failedAt < this.#retryMs) return false
      const inflight = this.#inflight
      if (
        inflight &&
        !joined &&
        inflight.startedAt >= floor &&
        now - inflight.startedAt < SHARED_WAIT_MS
      ) {
        joined = true
        const outcome = await settledWithin(inflight.promise, SHARED_WAIT_MS)
        if (outcome.kind === 'value' && !outcome.value) return false
        if (outcome.kind !== 'value' && this.#inflight === inflight) this.#inflight = null
        continue
      }
      const own = this.#start(now, keepAlive)
      const outcome = await settledWithin(own, this.#pollTimeoutMs)
      if (outcome.kind !== 'value') this.#fail(own)
      return outcome.kind === 'value' && outcome.value && this.#confirmedAt >= floor
    }
  }

  /**
   * Starts a poll in the background (kept alive by `keepAlive`) when the last success started
   * more than `aheadMs` before `arrived` and none is in flight or failed within `retryMs`.
   */
  refreshAhead(arrived: number, aheadMs: number, keepAlive: KeepAlive): void {
    this.#keepWatching(keepAlive)
    if (arrived - this.#confirmedAt <= aheadMs) return
    const now = this.#now()
    if (this.failing && now - this.#failedAt < this.#retryMs) return
    const inflight = this.#inflight
    if (inflight && now - inflight.startedAt < this.#pollTimeoutMs) return
    const own = this.#start(now, keepAlive)
    keepAlive(
      settledWithin(own, this.#pollTimeoutMs).then((o) => {
        if (o.kind !== 'value') this.#fail(own)
      })
    )
  }

  /** The newest entry the feed gave for `zone` within `FEED_WINDOW_MS`, if any. */
  window(zone: string): { id: string; n: number; op: FeedOp } | undefined {
    const w = this.#window.get(zone)
    return w && w.at > this.#now() - FEED_WINDOW_MS ? { id: w.id, n: w.n, op: w.op } : undefined
  }

  /**
   * Whether `zone` is hosted: undefined when the client cannot say (no index loaded, or the feed
   * does not know every served zone yet). True may be a false positive of the index.
   */
  hosted(zone: string): boolean | undefined {
    if (!this.#complete || !this.#index) return undefined
    if (this.#added.has(zone)) return true
    if (this.#removed.has(zone)) return false
    return this.#index.hasLabelCount(labelCount(zone)) && this.#index.has(zone)
  }

  /** Whether some hosted zone may have this many labels; undefined as for `hosted`. */
  hasLabelCount(count: number): boolean | undefined {
    if (!this.#complete || !this.#index) return undefined
    return this.#index.hasLabelCount(count) || this.#addedLabels.has(count)
  }

  /** The loaded index's reference (null while none is). */
  get index(): IndexRef | null {
    return this.#indexRef
  }

  // ── polling ───────────────────────────────────────────────────────────────────────────────

  /**
   * Opens a watch when watching, once a poll has given a cursor, and none is open (one open past
   * its wait and the poll timeout is taken as lost). Its reply is taken like a poll's, as of the
   * time it was sent plus how long the primary says it held it (at most the wait asked for).
   */
  #keepWatching(keepAlive: KeepAlive): void {
    if (this.#watchMs <= 0 || this.#cursor === null || this.failing) return
    const now = this.#now()
    if (this.#watch && now - this.#watch.startedAt < this.#watchMs + this.#pollTimeoutMs) return
    const watch = { startedAt: now }
    this.#watch = watch
    this.stats.feedCalls++
    const request = { cursor: this.#cursor, epoch: this.#epoch, waitMs: this.#watchMs }
    keepAlive(
      this.#poller
        .poll(request)
        .then((reply) => this.#take(reply, now + heldFor(reply, this.#watchMs), keepAlive))
        .catch(() => undefined)
        .finally(() => {
          if (this.#watch === watch) this.#watch = null
        })
    )
  }

  #start(now: number, keepAlive: KeepAlive | undefined): Promise<boolean> {
    this.stats.feedCalls++
    const promise = this.#poll(now, keepAlive)
    const inflight = { promise, startedAt: now }
    this.#inflight = inflight
    void promise.finally(() => {
      if (this.#inflight === inflight) this.#inflight = null
    })
    return promise
  }

  #fail(promise: Promise<boolean>): void {
    this.stats.feedFailures++
    this.#failedAt = Math.max(this.#failedAt, this.#now())
    if (this.#inflight?.promise === promise) this.#inflight = null
  }

  async #poll(startedAt: number, keepAlive: KeepAlive | undefined): Promise<boolean> {
    let reply: PollReply
    try {
      reply = await this.#poller.poll({ cursor: this.#cursor, epoch: this.#epoch })
    } catch {
      this.stats.feedFailures++
      this.#failedAt = Math.max(this.#failedAt, this.#now())
      return false
    }
    this.#take(reply, startedAt, keepAlive)
    return true
  }

  #take(reply: PollReply, startedAt: number, keepAlive: KeepAlive | undefined): void {
    const resync = reply.resync || (this.#epoch !== null && reply.epoch !== this.#epoch)
    // A reply older than one already taken (a slow poll overtaken by a later one) adds nothing.
    if (!resync && this.#cursor !== null && reply.seq < this.#cursor) return
    if (resync) {
      this.stats.resyncs++
      if (reply.epoch !== this.#epoch) {
        // Sequences of another epoch: the index's and the deltas' alike mean nothing here.
        this.#index = null
        this.#indexRef = null
      }
      this.#window.clear()
      this.#deltas = []
      this.#resetDeltaSets()
    }
    // Entries a later poll already gave (a watch overtaken by polls) are taken once.
    const after = resync ? null : this.#cursor
    const entries = after === null ? reply.entries : reply.entries.filter((e) => e.seq > after)
    this.#epoch = reply.epoch
    this.#cursor = reply.seq
    this.#complete = reply.complete
    const now = this.#now()
    for (const e of entries) {
      this.#window.delete(e.zone)
      this.#window.set(e.zone, { id: e.id, n: e.n, op: e.op, at: now })
      if (!this.#indexRef || e.seq > this.#indexRef.seq) {
        // Without its head text: the deltas live until the next index, the head only this change.
        const delta = { seq: e.seq, zone: e.zone, id: e.id, n: e.n, op: e.op }
        this.#deltas.push(delta)
        this.#applyDelta(delta)
      }
    }
    this.#trimWindow(now)
    const change: FeedChange = { entries, resync, indexChanged: false }
    if (keepAlive) change.keepAlive = keepAlive
    if (reply.offered && reply.offered.length > 0) change.offered = reply.offered
    this.#notify(change)
    this.#confirmedAt = Math.max(this.#confirmedAt, startedAt)
    if (this.#failedAt < startedAt) this.#failedAt = Number.NEGATIVE_INFINITY
    if (reply.index) this.#maybeLoadIndex(reply.index, keepAlive)
  }

  #trimWindow(now: number): void {
    for (const [zone, w] of this.#window) {
      if (w.at > now - FEED_WINDOW_MS) break
      this.#window.delete(zone)
    }
  }

  #notify(change: FeedChange): void {
    for (const listener of this.#listeners) listener(change)
  }

  // ── index and deltas ──────────────────────────────────────────────────────────────────────

  #maybeLoadIndex(ref: IndexRef, keepAlive: KeepAlive | undefined): void {
    const load = this.#loadIndex
    if (!load || ref.key === this.#indexRef?.key || ref.key === this.#indexLoading) return
    if (this.#indexRef && ref.seq <= this.#indexRef.seq) return
    this.#indexLoading = ref.key
    const epoch = this.#epoch
    const loading = load(ref.key)
      .then((bytes) => {
        if (bytes === null || this.#epoch !== epoch) return
        const index = ZoneIndex.decode(bytes)
        if (this.#indexRef && ref.seq <= this.#indexRef.seq) return
        this.stats.indexLoads++
        this.#swapIndex(index, ref)
      })
      .catch(() => undefined)
      .finally(() => {
        if (this.#indexLoading === ref.key) this.#indexLoading = null
      })
    keepAlive?.(loading)
  }

  #swapIndex(index: ZoneIndex, ref: IndexRef): void {
    this.#index = index
    this.#indexRef = ref
    this.#deltas = this.#deltas.filter((e) => e.seq > ref.seq)
    this.#resetDeltaSets()
    for (const e of this.#deltas) this.#applyDelta(e)
    this.#notify({ entries: [], resync: false, indexChanged: true })
  }

  #resetDeltaSets(): void {
    this.#added.clear()
    this.#removed.clear()
    this.#addedLabels.clear()
  }

  #applyDelta(e: FeedEntry): void {
    if (e.op === 'head') {
      this.#removed.delete(e.zone)
      if (!this.#added.has(e.zone)) {
        this.#added.add(e.zone)
        const c = labelCount(e.zone)
        this.#addedLabels.set(c, (this.#addedLabels.get(c) ?? 0) + 1)
      }
    } else {
      this.#removed.add(e.zone)
      if (this.#added.delete(e.zone)) {
        const c = labelCount(e.zone)
        const left = (this.#addedLabels.get(c) ?? 1) - 1
        if (left === 0) this.#addedLabels.delete(c)
        else this.#addedLabels.set(c, left)
      }
    }
  }
}

/** How long the primary held a watch's reply: its `heldMs` when it is a duration within the wait. */
function heldFor(reply: PollReply, waitMs: number): number {
  const held = reply.heldMs
  return typeof held === 'number' && Number.isFinite(held) && held > 0 ? Math.min(held, waitMs) : 0
}
