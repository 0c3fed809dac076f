/**
 * @module The feed primary's log, as pure logic over a small synchronous store: the Durable Object
 * gives it a SQLite store, tests and the virtual-clock simulation the in-memory one (memory-store.ts).
 *
 * Two views of the same history:
 * - the **entries**: every appended entry, numbered in arrival order (idempotent on zone, id, n, op),
 *   kept for `keepMs` and at most `maxEntries` rows, never past the current index's sequence;
 * - the **zones**: per zone name, its *effective* entry (the newest head of its current id, or its
 *   deletion). An entry that changes nothing (an older n, a late head of a deleted id, a late
 *   delete of a replaced id) stays in the log but never reaches a poll, so no poll reports an older
 *   head than one it reported before. A zone row also remembers `since`, the sequence at which the
 *   zone started being served (or stopped): the index deltas of a resync are the rows with `since`
 *   after the index.
 *
 * Polls and tails read the zones by sequence: a cursor's reply is every zone whose effective entry
 * came after it. Every method takes the time (`now`, ms) from its caller.
 */
import { FEED_WINDOW_MS } from './protocol.ts'
import type { FeedAppend, FeedEntry, IndexRef, PollReply, PollRequest } from './protocol.ts'
import { ZoneIndex } from './zone-index.ts'
import { checkAppend, FeedInputError } from './feed-append-check.ts'
import {
  freshMeta,
  type FeedMeta,
  type FeedStore,
  type IndexState,
  type ZoneRow,
} from './feed-store.ts'
import {
  DEFAULTS,
  MAX_TAIL_ENTRIES,
  TRIM_INTERVAL_MS,
  type FeedLogOptions,
} from './feed-log-options.ts'
import { digestAdd, digestRemove, digestString } from './zone-set-digest.ts'
import { InlineHeads, REPLY_HEAD_CHARS } from './inline-heads.ts'
import type {
  CompiledIndex,
  DigestReply,
  ServedZone,
  TailReply,
  TailRequest,
} from './feed-replies.ts'

export class FeedLog {
  readonly #store: FeedStore
  readonly #o: typeof DEFAULTS
  readonly #newEpoch: () => string
  /** Heads that ride their zones' effective entries (memory only). */
  readonly #heads = new InlineHeads()
  #meta: FeedMeta | null = null

  constructor(store: FeedStore, options: FeedLogOptions = {}) {
    this.#store = store
    const { newEpoch, ...rest } = options
    this.#o = { ...DEFAULTS, ...stripUndefined(rest) }
    this.#newEpoch = newEpoch ?? (() => crypto.randomUUID())
  }

  get epoch(): string {
    return this.#m().epoch
  }

  /** Appends entries in order; an entry the log already has adds nothing. Atomic: invalid input changes nothing. */
  append(entries: FeedAppend[], now: number): void {
    if (!Array.isArray(entries)) throw new FeedInputError('append: entries must be an array')
    const clean = entries.map(checkAppend)
    if (clean.length === 0) return
    this.#write((m) => {
      for (const e of clean) this.#add(m, e, now)
    })
  }

  /** What an isolate gets for its cursor (see `PollReply`). */
  poll(request: PollRequest, now: number): PollReply {
    const m = this.#m()
    const cursor = request?.cursor ?? null
    if (cursor !== null && request.epoch === m.epoch && this.#continues(m, cursor)) {
      const rows = this.#store.zonesAfter(cursor, this.#o.maxPollEntries + 1)
      if (rows.length <= this.#o.maxPollEntries) return this.#reply(m, rows, false, m.complete)
    }
    return this.#resync(m, now)
  }

  /** What a replica pulls: the effective entries after its sequence, a page at a time. */
  tail(request: TailRequest): TailReply {
    const m = this.#m()
    const base = { epoch: m.epoch, index: indexRef(m.index), complete: m.complete }
    const after = request?.after ?? null
    if (after === null || request.epoch !== m.epoch || !this.#continues(m, after))
      return { ...base, seq: m.seq, entries: [], more: false, reset: true }
    const limit = Math.max(1, Math.min(request.limit ?? Infinity, MAX_TAIL_ENTRIES))
    const rows = this.#store.zonesAfter(after, limit + 1)
    const more = rows.length > limit
    const page = more ? rows.slice(0, limit) : rows
    return {
      ...base,
      seq: more ? page[page.length - 1]!.seq : m.seq,
      entries: this.#entries(page),
      more,
      reset: false,
    }
  }

  /** The served set's digest and whether the feed is complete. */
  digest(): DigestReply {
    const m = this.#m()
    return {
      digest: digestString(m.served, m.sumA, m.sumB),
      zones: m.served,
      complete: m.complete,
      checkedAt: m.checkedAt,
      seq: m.seq,
    }
  }

  /**
   * D1's served set has this digest: when the feed is complete and has the same digest, the check
   * is recorded and true returned (no reconciliation needed); otherwise false.
   */
  confirm(digest: string, now: number): boolean {
    const m = this.#m()
    if (!m.complete || digest !== digestString(m.served, m.sumA, m.sumB)) return false
    this.#write((w) => {
      w.checkedAt = now
    })
    return true
  }

  /** Starts a reconciliation: the zones D1 serves follow (`reconcileZones`), then `reconcileEnd`. */
  reconcileBegin(): { session: number; asOf: number } {
    let started = { session: 0, asOf: 0 }
    this.#write((m) => {
      this.#store.clearSeen()
      m.sessions += 1
      started = { session: m.sessions, asOf: m.seq }
      m.reconcile = started
    })
    return started
  }

  /**
   * Zones D1 serves: each one the feed lacks, or has with another id, is added as `{op: 'head', n: 0}`
   * (unless the feed learned something about it after the reconciliation began).
   */
  reconcileZones(session: number, zones: ServedZone[], now: number): void {
    if (!Array.isArray(zones)) throw new FeedInputError('reconcile: zones must be an array')
    const clean = zones.map((z) => checkAppend({ zone: z?.zone, id: z?.id, n: 0, op: 'head' }))
    this.#write((m) => {
      const r = this.#session(m, session)
      this.#store.markSeen(
        clean.map((z) => z.zone),
        session
      )
      for (const z of clean) {
        const c = this.#store.zone(z.zone)
        if (c && c.op === 'head' && c.id === z.id) continue
        if (c && c.seq > r.asOf) continue
        this.#add(m, z, now)
      }
    })
  }

  /**
   * Ends a reconciliation: served zones it did not name get a `delete` (unless the feed learned
   * something about them after it began); the feed is complete from now on.
   */
  reconcileEnd(session: number, now: number): void {
    this.#write((m) => {
      const r = this.#session(m, session)
      let after = ''
      for (;;) {
        const page = this.#store.unseenServed(session, after, 1000)
        for (const c of page) {
          if (c.seq <= r.asOf) this.#add(m, { zone: c.zone, id: c.id, n: c.n, op: 'delete' }, now)
        }
        if (page.length < 1000) break
        after = page[page.length - 1]!.zone
      }
      this.#store.clearSeen()
      m.reconcile = null
      m.complete = true
      m.checkedAt = now
    })
  }

  /** One-shot reconciliation with every zone D1 serves (tests, small sets). */
  reconcile(served: ServedZone[], now: number): void {
    const { session } = this.reconcileBegin()
    this.reconcileZones(session, served, now)
    this.reconcileEnd(session, now)
  }

  /** Whether an index should be compiled now. */
  indexDue(now: number): boolean {
    const m = this.#m()
    if (m.index === null) return m.served > 0 || m.complete
    const deltas = m.setChanges - m.index.setChanges
    if (m.indexWanted && m.seq > m.index.seq) return true
    return (
      deltas > 0 && (deltas >= this.#o.indexDeltas || now - m.index.at >= this.#o.indexMinAgeMs)
    )
  }

  /** Compiles the index of every served zone; the caller stores its bytes, then calls `publishIndex`. */
  compileIndex(now: number): CompiledIndex {
    const m = this.#m()
    const version = Math.max(m.lastVersion + 1, Math.floor(now))
    const index = ZoneIndex.build(this.#store.servedNames())
    const compiled: CompiledIndex = {
      version,
      seq: m.seq,
      zones: index.size,
      at: now,
      setChanges: m.setChanges,
      bytes: index.encode(),
    }
    this.#write((w) => {
      w.lastVersion = version
    })
    return compiled
  }

  /** Announces a compiled index stored under `key` (an older one than the current is ignored). */
  publishIndex(compiled: CompiledIndex, key: string): void {
    this.#write((m) => {
      if (m.index !== null && m.index.seq > compiled.seq) return
      m.index = {
        key,
        seq: compiled.seq,
        zones: compiled.zones,
        version: compiled.version,
        at: compiled.at,
        setChanges: compiled.setChanges,
      }
      m.indexWanted = false
    })
  }

  /**
   * Removes entries older than `keepMs` or beyond `maxEntries` (at most `trimChunk` a call), never
   * past the current index's sequence: when it would, `indexDue` asks for a new index first.
   * Returns how many entries were removed.
   */
  trim(now: number): number {
    const m = this.#m()
    const byAge = this.#store.seqBefore(now - this.#o.keepMs)
    const byCount = Math.max(0, m.seq - this.#o.maxEntries)
    const want = Math.min(Math.max(byAge, byCount), m.floor + this.#o.trimChunk)
    const limit = m.index === null ? want : Math.min(want, m.index.seq)
    const blocked = want > limit
    if (limit <= m.floor && blocked === m.indexWanted) return 0
    const removed = Math.max(0, limit - m.floor)
    this.#write((w) => {
      if (limit > w.floor) {
        this.#store.trimThrough(limit)
        w.floor = limit
      }
      w.indexWanted = blocked
    })
    return removed
  }

  /** When maintenance (index compilation, trimming) is next due, or null when nothing is to do. */
  nextMaintenance(now: number): number | null {
    const m = this.#m()
    if (this.indexDue(now)) return now
    const times: number[] = []
    if (m.index !== null && m.setChanges > m.index.setChanges)
      times.push(m.index.at + this.#o.indexMinAgeMs)
    if (m.seq > m.floor) {
      const overCount = m.seq - m.floor > this.#o.maxEntries
      const blocked = m.index !== null && m.index.seq <= m.floor
      times.push(overCount && !blocked ? now : now + TRIM_INTERVAL_MS)
    }
    return times.length === 0 ? null : Math.max(now, Math.min(...times))
  }

  // ------------------------------------------------------------ internals

  #m(): FeedMeta {
    if (this.#meta === null) {
      const stored = this.#store.readMeta()
      if (stored !== null) this.#meta = stored
      else {
        this.#meta = freshMeta(this.#newEpoch())
        this.#store.writeMeta(this.#meta)
      }
    }
    return this.#meta
  }

  /** Runs `fn` on a copy of the meta in one store transaction; the copy replaces it once written. */
  #write(fn: (meta: FeedMeta) => void): void {
    const next = structuredClone(this.#m())
    this.#store.transaction(() => {
      fn(next)
      this.#store.writeMeta(next)
    })
    this.#meta = next
  }

  #continues(m: FeedMeta, cursor: number): boolean {
    return Number.isInteger(cursor) && cursor >= m.floor && cursor <= m.seq
  }

  #session(m: FeedMeta, session: number): { session: number; asOf: number } {
    if (m.reconcile === null || m.reconcile.session !== session)
      throw new FeedInputError(`reconcile: session ${session} is not the one under way`)
    return m.reconcile
  }

  #reply(m: FeedMeta, rows: ZoneRow[], resync: boolean, complete: boolean): PollReply {
    return {
      epoch: m.epoch,
      seq: m.seq,
      entries: this.#entries(rows),
      resync,
      index: indexRef(m.index),
      complete,
    }
  }

  /**
   * Every zone's effective entry within the window, and every change to the served set after the
   * index (its deltas). Past the cap: the newest entries, and `complete: false` for this reply
   * since the deltas are not all there.
   */
  #resync(m: FeedMeta, now: number): PollReply {
    const windowSeq = Math.max(this.#store.seqBefore(now - FEED_WINDOW_MS), m.floor)
    const indexSeq = m.index?.seq ?? m.seq
    const cap = this.#o.maxPollEntries
    const rows = this.#store.resyncZones(windowSeq, indexSeq, cap + 1)
    const over = rows.length > cap
    return this.#reply(m, over ? rows.slice(rows.length - cap) : rows, true, m.complete && !over)
  }

  /** Rows as entries, each with its zone's kept head while the reply's budget lasts. */
  #entries(rows: ZoneRow[]): FeedEntry[] {
    const budget = { chars: REPLY_HEAD_CHARS }
    return rows.map((r) => this.#heads.attach(entryOf(r), budget))
  }

  /** Appends one validated entry (unless the log has it) and applies it to the zone rows. */
  #add(m: FeedMeta, appended: FeedAppend, now: number): void {
    const { head, ...e } = appended
    if (this.#store.hasEntry(e)) return
    const seq = m.seq + 1
    const at = Math.max(now, m.lastAt)
    m.seq = seq
    m.lastAt = at
    this.#store.insertEntry({ ...e, seq, at })
    // The zone's effective entry moved to this one: its head (if it carries one) rides it. A head
    // text is what `headVersionKey(zone, id, n)` holds, written once: attaching it is never stale.
    if (this.#apply(m, { ...e, seq })) this.#heads.take(head === undefined ? e : { ...e, head })
  }

  /** Applies an entry to its zone's row; true when it became the zone's effective entry. */
  #apply(m: FeedMeta, e: FeedEntry): boolean {
    const c = this.#store.zone(e.zone)
    const served = c !== null && c.op === 'head'
    if (e.op === 'head') {
      if (c !== null && c.id === e.id) {
        // Same zone id: only a newer head moves it; a deleted id never comes back.
        if (c.op !== 'head' || e.n <= c.n) return false
        this.#store.putZone({ ...e, since: c.since })
        return true
      }
      if (this.#store.hasDelete(e.zone, e.id)) return false
      this.#store.putZone({ ...e, since: e.seq })
      if (served) digestRemove(m, c.zone, c.id)
      else m.setChanges += 1
      digestAdd(m, e.zone, e.id)
      return true
    }
    // A deletion of another id than the current one, or of a zone already deleted, changes nothing.
    if (c !== null && (c.id !== e.id || c.op === 'delete')) return false
    this.#store.putZone({ ...e, since: e.seq })
    if (served) {
      digestRemove(m, c.zone, c.id)
      m.setChanges += 1
    }
    return true
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}

function entryOf(r: ZoneRow): FeedEntry {
  return { seq: r.seq, zone: r.zone, id: r.id, n: r.n, op: r.op }
}

function indexRef(i: IndexState | null): IndexRef | null {
  return i === null ? null : { key: i.key, seq: i.seq, zones: i.zones }
}
