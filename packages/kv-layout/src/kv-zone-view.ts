/**
 * @module ZoneView over Workers KV with an isolate cache that never trusts a timer alone.
 *
 * What an isolate keeps, per zone it has answered for: the zone's newest head (metadata, apex,
 * overlay of names not yet folded into their buckets) and bucket texts, bounded in bytes across
 * all zones. Before answering from a zone, the view makes sure the zone was confirmed by a KV
 * read that started at most `revalidateMs` ago (one KV call, shared by every query waiting on the
 * same zone): once the zone's heads have lapped their slots, the one slot the next head goes to;
 * before that, or when that slot is out of step, the zone key and the head slots. It applies a
 * newer head, and drops exactly the buckets the heads in between say were rewritten (all of them
 * when it missed some). Heads of another zone of the same name (deleted and created again) are
 * never taken: a head names its zone's id.
 * A bucket fetched while a newer head arrived is used for that answer and not kept.
 *
 * A cold lookup costs one bulk get: the zone key and every head slot of each candidate zone, plus
 * the name's bucket keys under every ladder count (the count is unknown until the zone is read).
 * A missing bucket key of the live count is never read as "no such name": the view falls back to
 * the previous count the head announces, and otherwise fails (SERVFAIL upstream), because in
 * production a miss may be an edge-cached miss from before the key was written.
 */
import { bucketLineIndex, findInBucket, findInIndexedBucket } from './bucket-text.ts'
import { decodeNode, decodeZoneMeta, KvLayoutError } from './codec.ts'
import {
  decodeHead,
  decodeOverlay,
  headCounter,
  headFromMeta,
  headKey,
  headKeys,
  HEAD_SLOTS,
  headSlot,
  isHeadOf,
} from './head.ts'
import { BUCKET_LADDER, bucketKey, bucketOfHash, nameHash, zoneKey } from './keys.ts'
import { ancestorsBetween, isInZone, normalizeName, zoneCandidates } from './names.ts'
import type { LookupOptions, NodeData, ZoneHead, ZoneLookup, ZoneView } from './types.ts'

/** The part of a KV namespace binding this view needs (Workers KV bulk get of text values). */
export interface KvBulkReader {
  get(
    keys: string[],
    options: { type: 'text'; cacheTtl?: number }
  ): Promise<Map<string, string | null>>
}

/**
 * Edge cache time (s) asked for zone keys and heads, the revalidation signal: KV's minimum, so a
 * change (or a miss cached before a slot was written) is seen at most this long late at an edge
 * location, on top of KV's propagation. Bucket reads use KV's default (60 s): a bucket a head says
 * changed is read again, and `bucketMaxAgeMs` bounds how long an isolate keeps one.
 */
export const SIGNAL_CACHE_TTL_S = 30

/** How long (ms) "no hosted zone here" is trusted for a name under no known zone, by default. */
export const DEFAULT_ABSENT_TTL_MS = 1000

export interface KvZoneViewOptions {
  /** A zone confirmed by a KV read that started at most this long ago is answered from memory; default 5 ms. */
  revalidateMs?: number
  /**
   * A query answered from memory starts a background confirmation once the last one started
   * this long ago (none while one is in flight); default half of `revalidateMs`. Smaller keeps
   * answers fresher than the bound at the cost of more reads; queries never wait for these.
   */
  refreshAheadMs?: number
  /** Bytes of bucket text (and heads) the isolate keeps, across zones; default 64 MiB. */
  cacheBytes?: number
  /** How long "no hosted zone here" is trusted for a name under no known zone; default `DEFAULT_ABSENT_TTL_MS`. */
  absentTtlMs?: number
  /**
   * Longest an isolate keeps a bucket text before reading it again, whatever the heads say
   * (production KV may serve a stale copy from its edge cache right after a change); default 60 s.
   */
  bucketMaxAgeMs?: number
  /** Most zones kept; by default no count, only `zoneCacheBytes`. */
  maxZones?: number
  /**
   * Bytes the zones themselves may take (zone keys, heads, and an estimate of each entry's decoded
   * form), inside `cacheBytes`; default a quarter of it. Past it the zones held longest are
   * forgotten, so an isolate serving many small zones keeps as many as fit, not a fixed count.
   */
  zoneCacheBytes?: number
  /** Keys per KV bulk call (Workers KV allows 100). */
  maxKeysPerCall?: number
  /** Above this many keys a cold lookup reads zone keys and heads first, buckets after (two round trips); default 300 (parallel bulk calls of 100). */
  speculativeKeyBudget?: number
  now?: () => number
}

/** Counters for benchmarks and tests. */
export interface ZoneViewStats {
  lookups: number
  kvCalls: number
  kvKeys: number
  revalidations: number
  bucketHits: number
  bucketMisses: number
  cacheBytes: number
  cachedBuckets: number
  zones: number
}

interface CachedBucket {
  zone: ZoneEntry
  index: number
  text: string
  /** Line starts for binary search; null for a text not in canonical order (searched linearly). */
  lines: Int32Array | null
  size: number
  used: boolean
  fetchedAt: number
}

interface ZoneEntry {
  name: string
  head: ZoneHead
  /** Raw zone key value last read (a zone without heads takes its metadata from it). */
  raw: string
  /** Bucket count `buckets` belong to. */
  count: number
  buckets: Map<number, CachedBucket>
  /** Start time of the KV read that last confirmed the zone. */
  confirmedAt: number
  refresh: Promise<ZoneEntry | null> | null
  refreshStartedAt: number
  gone: boolean
  headBytes: number
  /**
   * Changes with every newer head taken (unique across the view's zones): answers and fetched
   * buckets are kept only if it did not change while they were being read.
   */
  stamp: number
}

/** Node names a lookup of `name` in `zone` reads: the name, ancestors, wildcards. */
export function nodeNamesFor(name: string, zone: string): string[] {
  if (name === zone) return []
  const ancestors = ancestorsBetween(name, zone)
  const wildcards = [...ancestors, zone].map((a) => (a === '' ? '*' : `*.${a}`))
  return [name, ...ancestors, ...wildcards]
}

/** Bucket keys of `name`'s lookup in `zone` for every bucket count of the ladder (cold cache). */
export function speculativeKeys(name: string, zone: string): string[] {
  const names = nodeNamesFor(name, zone)
  const keys = new Set<string>()
  for (const b of BUCKET_LADDER)
    for (const n of names) keys.add(bucketKey(zone, b, bucketOfHash(nameHash(n), b)))
  return [...keys]
}

const ENTRY_OVERHEAD = 96
/** Estimated bytes of a zone entry beyond its raw texts: the object, the decoded head, map slots. */
const ZONE_ENTRY_OVERHEAD = 1024
/** Names remembered as "not a zone" when no zone count bounds them. */
const MAX_ABSENT_NAMES = 40_000

/** A name's encoded node in a kept bucket: binary search when the bucket has a line index. */
function findInCached(bucket: CachedBucket, zone: string, name: string): string | null {
  return bucket.lines
    ? findInIndexedBucket(bucket.text, bucket.lines, zone, name)
    : findInBucket(bucket.text, zone, name)
}

/** Longest a query waits for a confirmation read another query started before reading itself. */
const SHARED_WAIT_MS = 100

type Settled<T> = { kind: 'value'; value: T } | { kind: 'failed' } | { kind: 'timeout' }

/** A promise's outcome, or `timeout` after `ms` (the promise may belong to a request that ended). */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
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

export class KvZoneView implements ZoneView {
  readonly #kv: KvBulkReader
  readonly #revalidateMs: number
  readonly #refreshAheadMs: number
  readonly #cacheBytes: number
  readonly #absentTtlMs: number
  readonly #maxZones: number
  readonly #zoneCacheBytes: number
  /** Bytes charged to zone entries: their head bytes plus ZONE_ENTRY_OVERHEAD each. */
  #zoneBytes = 0
  readonly #bucketMaxAgeMs: number
  readonly #maxKeysPerCall: number
  readonly #budget: number
  readonly #now: () => number
  readonly #zones = new Map<string, ZoneEntry>()
  /** Candidate names known not to be zones, until the given time. */
  readonly #absent = new Map<string, number>()
  /** Cached buckets in second-chance (CLOCK) order. */
  readonly #clock = new Set<CachedBucket>()
  #bytes = 0
  #stamps = 0
  readonly stats: ZoneViewStats = {
    lookups: 0,
    kvCalls: 0,
    kvKeys: 0,
    revalidations: 0,
    bucketHits: 0,
    bucketMisses: 0,
    cacheBytes: 0,
    cachedBuckets: 0,
    zones: 0,
  }

  constructor(kv: KvBulkReader, options: KvZoneViewOptions = {}) {
    this.#kv = kv
    this.#revalidateMs = options.revalidateMs ?? 5
    this.#refreshAheadMs = Math.min(
      options.refreshAheadMs ?? this.#revalidateMs / 2,
      this.#revalidateMs
    )
    this.#cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024
    this.#absentTtlMs = options.absentTtlMs ?? DEFAULT_ABSENT_TTL_MS
    this.#maxZones = options.maxZones ?? Number.POSITIVE_INFINITY
    this.#zoneCacheBytes = options.zoneCacheBytes ?? this.#cacheBytes / 4
    this.#bucketMaxAgeMs = options.bucketMaxAgeMs ?? 60_000
    this.#maxKeysPerCall = options.maxKeysPerCall ?? 100
    this.#budget = options.speculativeKeyBudget ?? 300
    this.#now = options.now ?? Date.now
  }

  async lookup(qname: string, options: LookupOptions = {}): Promise<ZoneLookup | null> {
    this.stats.lookups++
    const name = normalizeName(qname)
    const within = options.within === undefined ? undefined : normalizeName(options.within)
    const arrived = this.#now()
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await this.#zoneFor(name, within)
      if (!found) return null
      const entry = await this.#fresh(found.entry, arrived, options.keepAlive)
      if (!entry) continue // the zone was deleted meanwhile: look again
      const stamp = entry.stamp
      const nodes = await this.#nodes(name, entry, found.speculated)
      // Data of a newer head arrived while buckets were read: the nodes may mix both, say nothing.
      return entry.stamp === stamp
        ? { zone: entry.head.meta, nodes, stamp }
        : { zone: entry.head.meta, nodes }
    }
    return null
  }

  /**
   * The stamp of `zone`'s data once it is confirmed for a query that arrived at `arrived` (the
   * same rule as a lookup), or null when the zone is not held or is gone. An answer built from
   * a lookup with the same stamp is still the answer.
   */
  async confirm(
    zone: string,
    arrived: number = this.#now(),
    keepAlive?: (p: Promise<unknown>) => void
  ): Promise<number | null> {
    const entry = this.#zones.get(zone)
    if (!entry) return null
    const fresh = await this.#fresh(entry, arrived, keepAlive)
    return fresh ? fresh.stamp : null
  }

  /**
   * `confirm` without waiting: the stamp when the zone is already confirmed for a query that
   * arrived at `arrived` (starting a background confirmation ahead of expiry, as a lookup does),
   * null when it is not held, undefined when a confirmation read is needed first (call `confirm`).
   */
  confirmedStamp(
    zone: string,
    arrived: number,
    keepAlive?: (p: Promise<unknown>) => void
  ): number | null | undefined {
    const entry = this.#zones.get(zone)
    if (!entry || entry.gone) return null
    if (entry.confirmedAt < arrived - this.#revalidateMs) return undefined
    this.#refreshAheadIfDue(entry, arrived, keepAlive)
    return entry.stamp
  }

  /** Counters with the current cache size. */
  snapshot(): ZoneViewStats {
    return {
      ...this.stats,
      cacheBytes: this.#bytes,
      cachedBuckets: this.#clock.size,
      zones: this.#zones.size,
    }
  }

  /** Drops everything cached (tests). */
  clearCache(): void {
    for (const e of this.#zones.values()) this.#dropZone(e)
    this.#zones.clear()
    this.#zoneBytes = 0
    this.#absent.clear()
  }

  // ── which zone ────────────────────────────────────────────────────────────────────────────

  async #zoneFor(
    name: string,
    within: string | undefined
  ): Promise<{ entry: ZoneEntry; speculated: Map<string, string | null> | null } | null> {
    let candidates = zoneCandidates(name)
    if (within !== undefined) candidates = candidates.filter((c) => isInZone(within, c))
    let best: ZoneEntry | undefined
    let bestAt = -1
    for (let i = 0; i < candidates.length; i++) {
      const e = this.#zones.get(candidates[i]!)
      if (e) {
        best = e
        bestAt = i
        break
      }
    }
    const unknown: string[] = []
    if (best) {
      // A known zone lists the hosted zones below it: no other longer suffix can be a zone.
      const subzones = best.head.meta.subzones
      if (subzones && bestAt > 0) {
        const now = this.#now()
        for (let i = 0; i < bestAt; i++) {
          const c = candidates[i]!
          // A listed subzone found missing a moment ago (deleted; the list lags) is not read again.
          if (subzones.includes(c) && !((this.#absent.get(c) ?? 0) > now)) unknown.push(c)
        }
      }
      if (unknown.length === 0) return { entry: best, speculated: null }
    } else {
      const now = this.#now()
      for (const c of candidates) {
        const until = this.#absent.get(c)
        if (until === undefined || until <= now) unknown.push(c)
      }
      if (unknown.length === 0) return null
    }
    const speculated = await this.#coldRead(name, unknown)
    for (const c of candidates) {
      const e = this.#zones.get(c)
      if (e) return { entry: e, speculated }
    }
    return null
  }

  /** One bulk get: zone keys, heads and (within budget) the name's buckets under every count. */
  async #coldRead(name: string, zones: string[]): Promise<Map<string, string | null> | null> {
    const keys: string[] = []
    for (const z of zones) keys.push(zoneKey(z), ...headKeys(z))
    const speculative: string[] = []
    for (const z of zones) speculative.push(...speculativeKeys(name, z))
    const withBuckets = keys.length + speculative.length <= this.#budget
    const startedAt = this.#now()
    const values = await this.#bulk(
      withBuckets ? [...keys, ...speculative] : keys,
      SIGNAL_CACHE_TTL_S
    )
    for (const z of zones) {
      const raw = values.get(zoneKey(z)) ?? null
      const old = this.#zones.get(z)
      if (raw === null) {
        if (old) this.#forget(old)
        this.#markAbsent(z)
        continue
      }
      this.#absent.delete(z)
      const id = decodeZoneMeta(raw).id
      let head: ZoneHead | null = null
      let newest = -1
      let newestText = ''
      for (const k of headKeys(z)) {
        const text = values.get(k)
        if (text === null || text === undefined || !isHeadOf(text, id)) continue
        const n = headCounter(text)
        if (n > newest) {
          newest = n
          newestText = text
        }
      }
      if (newest >= 0) {
        const decoded = decodeHead(newestText)
        // An overlay key not visible here yet: hold the head as one behind, so the next
        // confirmation takes it again (with its overlay) instead of answering without it for good.
        head = (await this.#withOverlay(decoded)) ?? { ...decoded, n: decoded.n - 1 }
      } else head = headFromMeta(decodeZoneMeta(raw))
      const same =
        old &&
        old.head.meta.id === head.meta.id &&
        old.head.meta.layout?.buckets === head.meta.layout?.buckets
      if (old && same && old.head.n >= head.n) {
        old.confirmedAt = Math.max(old.confirmedAt, startedAt)
        continue
      }
      if (old) this.#forget(old)
      this.#addZone(z, head, raw, startedAt)
    }
    return withBuckets ? values : null
  }

  #addZone(name: string, head: ZoneHead, raw: string, confirmedAt: number): ZoneEntry {
    const entry: ZoneEntry = {
      name,
      head,
      raw,
      count: head.meta.layout?.buckets ?? 0,
      buckets: new Map(),
      confirmedAt,
      refresh: null,
      refreshStartedAt: 0,
      gone: false,
      headBytes: 0,
      stamp: ++this.#stamps,
    }
    const replaced = this.#zones.get(name)
    if (replaced) this.#forget(replaced)
    this.#zones.set(name, entry)
    this.#zoneBytes += ZONE_ENTRY_OVERHEAD
    this.#setHeadBytes(entry, raw.length + head.overlay.size * 128)
    while (
      this.#zones.size > 1 &&
      (this.#zones.size > this.#maxZones || this.#zoneBytes > this.#zoneCacheBytes)
    ) {
      const oldest = this.#zones.values().next().value as ZoneEntry
      this.#forget(oldest)
    }
    return entry
  }

  #markAbsent(name: string): void {
    this.#absent.set(name, this.#now() + this.#absentTtlMs)
    const cap = Math.min(4 * this.#maxZones, MAX_ABSENT_NAMES)
    if (this.#absent.size > cap) {
      const now = this.#now()
      for (const [k, until] of this.#absent)
        if (until <= now || this.#absent.size > cap / 2) this.#absent.delete(k)
    }
  }

  // ── freshness ─────────────────────────────────────────────────────────────────────────────

  /**
   * The zone, confirmed by a read that started no earlier than `revalidateMs` before `arrived`;
   * null if it is gone. Queries arriving while a confirmation read is in flight wait for it, but
   * never rely on it: in Workers a promise started by another request never settles if that
   * request ends first (a client that went away), and its own continuations never run. A waiter
   * gives up after `SHARED_WAIT_MS` and reads for itself; a read in flight for longer than that is
   * not joined at all. Whoever started a read clears it.
   */
  async #fresh(
    entry: ZoneEntry,
    arrived: number,
    keepAlive?: (p: Promise<unknown>) => void
  ): Promise<ZoneEntry | null> {
    const floor = arrived - this.#revalidateMs
    let joined = false
    for (;;) {
      if (entry.gone) return null
      if (entry.confirmedAt >= floor) {
        this.#refreshAheadIfDue(entry, arrived, keepAlive)
        return entry
      }
      const inflight = entry.refresh
      const startedAt = entry.refreshStartedAt
      const now = this.#now()
      if (inflight && !joined && startedAt >= floor && now - startedAt < SHARED_WAIT_MS) {
        joined = true
        const outcome = await settledWithin(inflight, SHARED_WAIT_MS)
        if (outcome.kind === 'value') return outcome.value
        if (entry.refresh === inflight) entry.refresh = null
        continue
      }
      const own = this.#revalidate(entry, now)
      entry.refresh = own
      entry.refreshStartedAt = now
      try {
        return await own
      } finally {
        if (entry.refresh === own) entry.refresh = null
      }
    }
  }

  /** A head whose overlay lives in a key of its own, with the overlay read (one more KV call); null while that key is not visible. */
  async #withOverlay(head: ZoneHead): Promise<ZoneHead | null> {
    if (head.overlayKey === undefined) return head
    const value = (await this.#bulk([head.overlayKey], SIGNAL_CACHE_TTL_S)).get(head.overlayKey)
    if (value === null || value === undefined) return null
    return { ...head, overlay: decodeOverlay(value) }
  }

  /** Confirms a zone in the background (the caller's request kept alive for it) before it expires. */
  /** Starts a background confirmation when the last one is older than `refreshAheadMs` and none is in flight. */
  #refreshAheadIfDue(
    entry: ZoneEntry,
    arrived: number,
    keepAlive?: (p: Promise<unknown>) => void
  ): void {
    if (keepAlive && !entry.refresh && arrived - entry.confirmedAt > this.#refreshAheadMs)
      this.#refreshAhead(entry, keepAlive)
  }

  #refreshAhead(entry: ZoneEntry, keepAlive: (p: Promise<unknown>) => void): void {
    const startedAt = this.#now()
    const own = this.#revalidate(entry, startedAt)
    entry.refresh = own
    entry.refreshStartedAt = startedAt
    keepAlive(
      own
        .catch(() => null)
        .finally(() => {
          if (entry.refresh === own) entry.refresh = null
        })
    )
  }

  async #revalidate(entry: ZoneEntry, startedAt: number): Promise<ZoneEntry | null> {
    this.stats.revalidations++
    if (entry.head.n >= HEAD_SLOTS) {
      const settled = await this.#revalidateBySlot(entry, startedAt)
      if (settled !== undefined) return settled
    }
    const z = entry.name
    const id = entry.head.meta.id
    const n = entry.head.n
    const next =
      n > 0 && n < HEAD_SLOTS
        ? [headKey(z, headSlot(n + 1)), headKey(z, headSlot(n + 2))]
        : headKeys(z)
    let values = await this.#bulk([zoneKey(z), ...next], SIGNAL_CACHE_TTL_S)
    const raw = values.get(zoneKey(z)) ?? null
    if (raw === null) {
      this.#forget(entry)
      this.#markAbsent(z)
      return null
    }
    if (raw !== entry.raw && decodeZoneMeta(raw).id !== entry.head.meta.id) {
      // Another zone of the same name (deleted and created again): its heads count from 1.
      this.#forget(entry)
      return null
    }
    if (n > 0 && n < HEAD_SLOTS) {
      const c1 = headCounter(values.get(next[0]!) ?? '')
      const c2 = headCounter(values.get(next[1]!) ?? '')
      // Two or more heads since ours (or a slot lapped): the newest may be in any slot.
      if (c1 > n + 1 || c2 >= n + 2) values = await this.#bulk(headKeys(z), SIGNAL_CACHE_TTL_S)
    }
    let newest = -1
    let newestText = ''
    for (const [key, text] of values) {
      if (text === null || key === zoneKey(z) || !isHeadOf(text, id)) continue
      const c = headCounter(text)
      if (c > newest) {
        newest = c
        newestText = text
      }
    }
    if (entry.gone) return null
    if (newest > entry.head.n) {
      // A head whose overlay key is not visible here yet is taken on a later confirmation.
      const head = await this.#withOverlay(decodeHead(newestText))
      if (entry.gone) return null
      if (head && head.n > entry.head.n) this.#apply(entry, head, raw)
    } else if (entry.head.n === 0 && raw !== entry.raw)
      this.#apply(entry, headFromMeta(decodeZoneMeta(raw)), raw)
    entry.confirmedAt = Math.max(entry.confirmedAt, startedAt)
    return entry
  }

  /**
   * Confirms a zone that has lapped its head slots (n ≥ HEAD_SLOTS) by reading one key: the slot
   * head n+1 goes to. While nothing is new it still holds this zone's head n+1−HEAD_SLOTS; when it
   * holds head n+1, that head is taken and the slot after it is read the same way, since heads are
   * written in order. Anything else (an empty slot: the zone's keys were purged, or a zone of the
   * same name was created again; another zone's head; a counter out of step; a head whose overlay
   * key cannot be read) is left to the full read of the zone key and every slot: undefined. The
   * zone key need not be read while the slots are in step, because a zone's metadata reaches
   * readers through its heads once it has one.
   */
  async #revalidateBySlot(
    entry: ZoneEntry,
    startedAt: number
  ): Promise<ZoneEntry | null | undefined> {
    const z = entry.name
    const id = entry.head.meta.id
    for (;;) {
      const n = entry.head.n
      const key = headKey(z, headSlot(n + 1))
      const text = (await this.#bulk([key], SIGNAL_CACHE_TTL_S)).get(key) ?? null
      if (entry.gone) return null
      if (text === null || !isHeadOf(text, id)) return undefined
      const c = headCounter(text)
      if (c === n + 1 - HEAD_SLOTS) break
      if (c !== n + 1) return undefined
      // Its overlay key not visible (not yet, or deleted after a newer head folded it): the full
      // read takes the newest head, or leaves this one to a later confirmation.
      const head = await this.#withOverlay(decodeHead(text))
      if (entry.gone) return null
      if (!head || head.meta.id !== id) return undefined
      this.#apply(entry, head, entry.raw)
    }
    entry.confirmedAt = Math.max(entry.confirmedAt, startedAt)
    return entry
  }

  /** Takes a newer head: drops the buckets rewritten since the one held (all of them after a gap). */
  #apply(entry: ZoneEntry, head: ZoneHead, raw: string): void {
    const count = head.meta.layout?.buckets ?? 0
    const since = entry.head.n
    const contiguous = since > 0 && head.changed.some(([c]) => c === since + 1)
    if (count !== entry.count || !contiguous) this.#dropBuckets(entry)
    else
      for (const [c, buckets] of head.changed) {
        if (c <= since) continue
        if (buckets === 'all') {
          this.#dropBuckets(entry)
          break
        }
        for (const i of buckets) this.#dropBucket(entry, i)
      }
    entry.stamp = ++this.#stamps
    entry.head = head
    entry.raw = raw
    entry.count = count
    this.#setHeadBytes(entry, raw.length + head.overlay.size * 128)
  }

  // ── nodes ─────────────────────────────────────────────────────────────────────────────────

  async #nodes(
    name: string,
    entry: ZoneEntry,
    speculated: Map<string, string | null> | null
  ): Promise<Map<string, NodeData>> {
    const nodes = new Map<string, NodeData>()
    const zone = entry.name
    const names = nodeNamesFor(name, zone)
    if (names.length === 0) return nodes
    const count = entry.count
    if (count === 0) throw new KvLayoutError(`zone ${zone}: no bucket layout`)
    const overlay = entry.head.overlay
    let pending: { name: string; index: number }[] | null = null
    const staleBefore = this.#now() - this.#bucketMaxAgeMs
    for (const n of names) {
      if (overlay.has(n)) {
        const node = overlay.get(n)
        if (node) nodes.set(n, node)
        continue
      }
      const index = bucketOfHash(nameHash(n), count)
      const cached = entry.buckets.get(index)
      if (cached && cached.fetchedAt >= staleBefore) {
        this.stats.bucketHits++
        cached.used = true
        const encoded = findInCached(cached, zone, n)
        if (encoded !== null) nodes.set(n, decodeNode(encoded))
        continue
      }
      ;(pending ??= []).push({ name: n, index })
    }
    if (!pending) return nodes

    const stamp = entry.stamp
    const texts = new Map<number, string>()
    const wanted = [...new Set(pending.map((p) => p.index))]
    const keys = wanted.map((i) => bucketKey(zone, count, i))
    const values =
      speculated && keys.every((k) => speculated.has(k)) ? speculated : await this.#bulk(keys)
    this.stats.bucketMisses += wanted.length
    const missing: { name: string; index: number }[] = []
    for (let k = 0; k < wanted.length; k++) {
      const text = values.get(keys[k]!)
      if (text === null || text === undefined) continue
      texts.set(wanted[k]!, text)
      if (entry.stamp === stamp && !entry.gone) this.#store(entry, wanted[k]!, text)
    }
    for (const p of pending) {
      const text = texts.get(p.index)
      if (text === undefined) {
        missing.push(p)
        continue
      }
      const stored = entry.buckets.get(p.index)
      const encoded =
        stored && stored.text === text
          ? findInCached(stored, zone, p.name)
          : findInBucket(text, zone, p.name)
      if (encoded !== null) nodes.set(p.name, decodeNode(encoded))
    }
    if (missing.length > 0) await this.#fromPrevious(entry, missing, nodes)
    return nodes
  }

  /**
   * A bucket of the live count that KV does not return (not yet visible here): read the names
   * from the previous count, which stays readable until retired; never answer "no such name".
   */
  async #fromPrevious(
    entry: ZoneEntry,
    missing: { name: string; index: number }[],
    nodes: Map<string, NodeData>
  ): Promise<void> {
    const zone = entry.name
    const prev = entry.head.meta.layout?.prev
    if (prev === undefined)
      throw new KvLayoutError(`zone ${zone}: bucket ${missing[0]!.index} of ${entry.count} missing`)
    const keys = missing.map((m) => bucketKey(zone, prev, bucketOfHash(nameHash(m.name), prev)))
    const values = await this.#bulk(keys)
    missing.forEach((m, k) => {
      const text = values.get(keys[k]!)
      if (text === null || text === undefined)
        throw new KvLayoutError(`zone ${zone}: bucket of ${m.name} missing in both counts`)
      const encoded = findInBucket(text, zone, m.name)
      if (encoded !== null) nodes.set(m.name, decodeNode(encoded))
    })
  }

  // ── byte-bounded bucket cache ─────────────────────────────────────────────────────────────

  #store(entry: ZoneEntry, index: number, text: string): void {
    if (text.length + ENTRY_OVERHEAD > this.#cacheBytes / 8) return
    const lines = bucketLineIndex(text)
    const size = text.length + (lines?.byteLength ?? 0) + ENTRY_OVERHEAD
    this.#dropBucket(entry, index)
    const bucket: CachedBucket = {
      zone: entry,
      index,
      text,
      lines,
      size,
      used: false,
      fetchedAt: this.#now(),
    }
    entry.buckets.set(index, bucket)
    this.#clock.add(bucket)
    this.#bytes += size
    this.#evict()
  }

  #setHeadBytes(entry: ZoneEntry, bytes: number): void {
    this.#bytes += bytes - entry.headBytes
    if (this.#zones.get(entry.name) === entry) this.#zoneBytes += bytes - entry.headBytes
    entry.headBytes = bytes
    this.#evict()
  }

  /** Second chance: a bucket used since it was last passed over goes to the back once. */
  #evict(): void {
    while (this.#bytes > this.#cacheBytes && this.#clock.size > 0) {
      const oldest = this.#clock.values().next().value as CachedBucket
      this.#clock.delete(oldest)
      if (oldest.used) {
        oldest.used = false
        this.#clock.add(oldest)
        continue
      }
      oldest.zone.buckets.delete(oldest.index)
      this.#bytes -= oldest.size
    }
  }

  #dropBucket(entry: ZoneEntry, index: number): void {
    const bucket = entry.buckets.get(index)
    if (!bucket) return
    entry.buckets.delete(index)
    this.#clock.delete(bucket)
    this.#bytes -= bucket.size
  }

  #dropBuckets(entry: ZoneEntry): void {
    for (const index of [...entry.buckets.keys()]) this.#dropBucket(entry, index)
  }

  #dropZone(entry: ZoneEntry): void {
    this.#dropBuckets(entry)
    this.#bytes -= entry.headBytes
    if (this.#zones.get(entry.name) === entry) this.#zoneBytes -= entry.headBytes
    entry.headBytes = 0
  }

  #forget(entry: ZoneEntry): void {
    entry.gone = true
    this.#dropZone(entry)
    if (this.#zones.get(entry.name) === entry) {
      this.#zones.delete(entry.name)
      this.#zoneBytes -= ZONE_ENTRY_OVERHEAD
    }
  }

  /** One round trip: chunks of at most `maxKeysPerCall` keys read in parallel. */
  async #bulk(keys: string[], cacheTtl?: number): Promise<Map<string, string | null>> {
    const unique = [...new Set(keys)]
    const chunks: string[][] = []
    for (let i = 0; i < unique.length; i += this.#maxKeysPerCall)
      chunks.push(unique.slice(i, i + this.#maxKeysPerCall))
    this.stats.kvCalls += chunks.length
    this.stats.kvKeys += unique.length
    const options =
      cacheTtl === undefined ? { type: 'text' as const } : { type: 'text' as const, cacheTtl }
    const results = await Promise.all(chunks.map((c) => this.#kv.get(c, options)))
    const out = new Map<string, string | null>()
    for (const r of results) for (const [k, v] of r) out.set(k, v)
    return out
  }
}
