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
import type { FeedAppend, FeedEntry, FeedOp, IndexRef, PollReply, PollRequest } from './protocol.ts'
import { ZoneIndex } from './zone-index.ts'

/** A zone's effective entry. */
export interface ZoneRow extends FeedEntry {
  /** Sequence at which the zone became served (head) or stopped being served (delete). */
  since: number
}

/** An entry as the log keeps it: with its arrival time (ms, non-decreasing with seq). */
export interface StoredEntry extends FeedEntry {
  at: number
}

/** The index the feed announces, with what the log needs to decide when to compile the next. */
export interface IndexState extends IndexRef {
  version: number
  /** When it was compiled (ms). */
  at: number
  /** `FeedMeta.setChanges` when it was compiled: the served set's changes since are its deltas. */
  setChanges: number
}

export interface FeedMeta {
  /** Random, set when the log's history starts; a cursor of another epoch means nothing. */
  epoch: string
  /** Highest sequence assigned (entries are numbered 1, 2, … without gaps). */
  seq: number
  /** Entries up to this sequence have been trimmed: a cursor below it gets a resync. */
  floor: number
  /** Arrival time of the newest entry (keeps `at` non-decreasing). */
  lastAt: number
  index: IndexState | null
  /** Highest index version used (a compiled index whose KV write failed still uses its version). */
  lastVersion: number
  /** Count of changes to the served set (a zone starting or stopping being served). */
  setChanges: number
  /** Trimming wanted to go past the index's sequence: compile a new index first. */
  indexWanted: boolean
  /** Reconciled with D1 at least once in this epoch. */
  complete: boolean
  /** When D1's served set was last found equal to the feed's (or reconciled). */
  checkedAt: number | null
  /** Order-independent digest of the served (zone, id) set: count and two 32-bit sums. */
  served: number
  sumA: number
  sumB: number
  /** The reconciliation under way (its zones are marked seen), or null. */
  reconcile: { session: number; asOf: number } | null
  sessions: number
}

/**
 * What the log stores. Synchronous (Durable Object SQLite is); `transaction` makes a group of
 * calls atomic. Zone rows are read by name, by sequence and by `since`.
 */
export interface FeedStore {
  transaction<T>(fn: () => T): T
  readMeta(): FeedMeta | null
  writeMeta(meta: FeedMeta): void
  /** Whether the log has this (zone, id, n, op). */
  hasEntry(entry: FeedAppend): boolean
  /** Whether the log has a deletion of this zone id. */
  hasDelete(zone: string, id: string): boolean
  insertEntry(entry: StoredEntry): void
  /** Highest sequence of an entry that arrived before `at` (0 if none is kept). */
  seqBefore(at: number): number
  /** Removes every entry with seq ≤ `seq`, and every zone row of a deletion with seq ≤ `seq`. */
  trimThrough(seq: number): void
  zone(name: string): ZoneRow | null
  putZone(row: ZoneRow): void
  /** Zone rows with seq > `after`, by seq ascending, at most `limit`. */
  zonesAfter(after: number, limit: number): ZoneRow[]
  /** Zone rows with seq > `windowSeq` or since > `indexSeq`, the `limit` of highest seq, by seq ascending. */
  resyncZones(windowSeq: number, indexSeq: number, limit: number): ZoneRow[]
  /** Names of the served zones (rows whose op is head). */
  servedNames(): Iterable<string>
  /** Marks zones as seen by a reconciliation session. */
  markSeen(zones: string[], session: number): void
  /** Served zone rows not seen by `session`, name > `after`, by name, at most `limit`. */
  unseenServed(session: number, after: string, limit: number): ZoneRow[]
  /** Forgets every seen mark. */
  clearSeen(): void
}

export interface FeedLogOptions {
  /** Entries per poll reply before it becomes a resync (default 10,000). */
  maxPollEntries?: number
  /** Entries per tail reply (default 10,000). */
  maxTailEntries?: number
  /** How long entries are kept (default 24 h). */
  keepMs?: number
  /** Most entries kept (default 1,000,000). */
  maxEntries?: number
  /** Most entries removed by one `trim` (default 50,000). */
  trimChunk?: number
  /** Served-set changes after which an index is compiled at once (default 1,000). */
  indexDeltas?: number
  /** Otherwise an index with deltas is recompiled once it is this old (default 60 s). */
  indexMinAgeMs?: number
  /** How often trimming runs while entries are kept (default 1 h). */
  trimIntervalMs?: number
  /** A new epoch's name (default a random UUID). */
  newEpoch?: () => string
}

export interface TailRequest {
  /** The replica's sequence; null when it has nothing yet. */
  after: number | null
  epoch: string | null
  /** At most this many entries (capped by the log's own limit). */
  limit?: number
}

export interface TailReply {
  epoch: string
  /** Sequence the reply brings the replica to. */
  seq: number
  /** Effective entries after `after`, by seq. */
  entries: FeedEntry[]
  /** More entries follow `seq`: ask again. */
  more: boolean
  /** The replica's `after` cannot be continued (first tail, another epoch, trimmed): start empty at `seq`. */
  reset: boolean
  index: IndexRef | null
  complete: boolean
}

/** A served zone as D1 knows it. */
export interface ServedZone {
  zone: string
  id: string
}

export interface DigestReply {
  /** Digest of the served set (`ZoneSetDigest` over the same pairs gives the same string). */
  digest: string
  zones: number
  complete: boolean
  checkedAt: number | null
  seq: number
}

/** An index compiled by `compileIndex`, to be written to KV and then announced with `publishIndex`. */
export interface CompiledIndex {
  version: number
  seq: number
  zones: number
  at: number
  setChanges: number
  bytes: Uint8Array
}

/** Input the feed refuses (the caller's bug, never a transient failure). */
export class FeedInputError extends Error {
  override name = 'FeedInputError'
}

const DEFAULTS = {
  maxPollEntries: 10_000,
  maxTailEntries: 10_000,
  keepMs: 24 * 3600_000,
  maxEntries: 1_000_000,
  trimChunk: 50_000,
  indexDeltas: 1_000,
  indexMinAgeMs: 60_000,
  trimIntervalMs: 3600_000,
}

const MAX_NAME_CHARS = 253
const MAX_ID_CHARS = 64

export class FeedLog {
  readonly #store: FeedStore
  readonly #o: typeof DEFAULTS
  readonly #newEpoch: () => string
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
    const limit = Math.max(1, Math.min(request.limit ?? Infinity, this.#o.maxTailEntries))
    const rows = this.#store.zonesAfter(after, limit + 1)
    const more = rows.length > limit
    const page = more ? rows.slice(0, limit) : rows
    return {
      ...base,
      seq: more ? page[page.length - 1]!.seq : m.seq,
      entries: page.map(entryOf),
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
      times.push(overCount && !blocked ? now : now + this.#o.trimIntervalMs)
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
      entries: rows.map(entryOf),
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

  /** Appends one validated entry (unless the log has it) and applies it to the zone rows. */
  #add(m: FeedMeta, e: FeedAppend, now: number): void {
    if (this.#store.hasEntry(e)) return
    const seq = m.seq + 1
    const at = Math.max(now, m.lastAt)
    m.seq = seq
    m.lastAt = at
    this.#store.insertEntry({ ...e, seq, at })
    this.#apply(m, { ...e, seq })
  }

  #apply(m: FeedMeta, e: FeedEntry): void {
    const c = this.#store.zone(e.zone)
    const served = c !== null && c.op === 'head'
    if (e.op === 'head') {
      if (c !== null && c.id === e.id) {
        // Same zone id: only a newer head moves it; a deleted id never comes back.
        if (c.op === 'head' && e.n > c.n) this.#store.putZone({ ...e, since: c.since })
        return
      }
      if (this.#store.hasDelete(e.zone, e.id)) return
      this.#store.putZone({ ...e, since: e.seq })
      if (served) digestRemove(m, c.zone, c.id)
      else m.setChanges += 1
      digestAdd(m, e.zone, e.id)
      return
    }
    // A deletion of another id than the current one, or of a zone already deleted, changes nothing.
    if (c !== null && (c.id !== e.id || c.op === 'delete')) return
    this.#store.putZone({ ...e, since: e.seq })
    if (served) {
      digestRemove(m, c.zone, c.id)
      m.setChanges += 1
    }
  }
}

function freshMeta(epoch: string): FeedMeta {
  return {
    epoch,
    seq: 0,
    floor: 0,
    lastAt: 0,
    index: null,
    lastVersion: 0,
    setChanges: 0,
    indexWanted: false,
    complete: false,
    checkedAt: null,
    served: 0,
    sumA: 0,
    sumB: 0,
    reconcile: null,
    sessions: 0,
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

function checkAppend(e: unknown): FeedAppend {
  const x = e as Partial<FeedAppend> | null
  if (x === null || typeof x !== 'object') throw new FeedInputError('entry must be an object')
  const { zone, id, n, op } = x
  if (
    typeof zone !== 'string' ||
    zone.length > MAX_NAME_CHARS ||
    /[A-Z]/.test(zone) ||
    (zone.endsWith('.') && !zone.endsWith('\\.'))
  )
    throw new FeedInputError(`entry zone must be a normalised name, got ${JSON.stringify(zone)}`)
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS)
    throw new FeedInputError(`entry id must be a zone id, got ${JSON.stringify(id)}`)
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new FeedInputError(`entry n must be an integer ≥ 0, got ${JSON.stringify(n)}`)
  if (op !== 'head' && op !== 'delete')
    throw new FeedInputError(`entry op must be head or delete, got ${JSON.stringify(op)}`)
  return { zone, id, n, op: op satisfies FeedOp }
}

// ------------------------------------------------------------ served-set digest

/** Two FNV-1a 32-bit hashes (different offsets) of `zone\nid`. */
function pairHash(zone: string, id: string): [number, number] {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  const s = `${zone}\n${id}`
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x01000193)
    b ^= b >>> 15
  }
  return [a >>> 0, b >>> 0]
}

function digestString(count: number, a: number, b: number): string {
  return `${count}:${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`
}

function digestAdd(m: FeedMeta, zone: string, id: string): void {
  const [a, b] = pairHash(zone, id)
  m.served += 1
  m.sumA = (m.sumA + a) >>> 0
  m.sumB = (m.sumB + b) >>> 0
}

function digestRemove(m: FeedMeta, zone: string, id: string): void {
  const [a, b] = pairHash(zone, id)
  m.served -= 1
  m.sumA = (m.sumA - a) >>> 0
  m.sumB = (m.sumB - b) >>> 0
}

/** The digest of a served set, built incrementally (the cron's side of `FeedLog.digest`). */
export class ZoneSetDigest {
  #count = 0
  #a = 0
  #b = 0

  add(zone: string, id: string): void {
    const [a, b] = pairHash(zone, id)
    this.#count += 1
    this.#a = (this.#a + a) >>> 0
    this.#b = (this.#b + b) >>> 0
  }

  get size(): number {
    return this.#count
  }

  toString(): string {
    return digestString(this.#count, this.#a, this.#b)
  }
}
