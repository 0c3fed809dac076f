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
 * With a zone-change feed (`feed` option, `@edgedns/zone-feed`), one poll confirms every zone the
 * isolate holds: a held zone is fresh while the last successful poll started at most `revalidateMs`
 * before the query and the feed names no newer head for it. A head the feed names is read under its
 * versioned key (`h:<zone>:v:<n>`), written before the feed names it and never rewritten, so with a
 * long edge cache time; a poll's heads are read in one bulk get in the background. A delete entry, or
 * an entry of another zone id, forgets the zone. The feed's hosted-zone index decides which suffixes
 * of a name may be zones at all: with a complete index, a name under no hosted zone costs no KV read.
 * When the feed cannot be reached, zones are confirmed through their head slots as above.
 *
 * Heads with bucket versions (`bv`) name immutable bucket keys, kept until evicted; a versioned bucket
 * that is missing (retired after the isolate held its head too long) makes the view confirm the zone
 * again and retry once, never answer "no such name".
 *
 * A cold lookup costs one bulk get: the zone key and every head slot of each candidate zone, plus
 * the name's bucket keys under every ladder count (the count is unknown until the zone is read).
 * A missing bucket key of the live count is never read as "no such name": the view falls back to
 * the previous count the head announces, and otherwise fails (SERVFAIL upstream), because in
 * production a miss may be an edge-cached miss from before the key was written.
 */
import {
  settledWithin,
  SHARED_WAIT_MS,
  type FeedChange,
  type FeedClient,
  type KeepAlive,
} from '@edgedns/zone-feed'
import { AbsentNames } from './absent-names.ts'
import { BucketCache, findInCached, type CachedBucket } from './bucket-cache.ts'
import { findInBucket } from './bucket-text.ts'
import { confirmBySlots, type SlotConfirmIo } from './slot-confirm.ts'
import { decodeNode, decodeZoneMeta, KvLayoutError } from './codec.ts'
import {
  bucketVersion,
  decodeHead,
  decodeOverlay,
  headCounter,
  headFromMeta,
  headKeys,
  headVersionKey,
  isHeadOf,
} from './head.ts'
import { BUCKET_LADDER, bucketKey, bucketOfHash, nameHash, zoneKey } from './keys.ts'
import { ancestorsBetween, isInZone, normalizeName, zoneCandidates } from './names.ts'
import type {
  BucketVersions,
  LookupOptions,
  NodeData,
  ZoneHead,
  ZoneLookup,
  ZoneView,
} from './types.ts'

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

/**
 * Edge cache time (s) asked for keys written once and never rewritten: versioned heads the feed
 * names, their overlay keys, and versioned buckets. A location may keep them as long as it likes.
 */
export const IMMUTABLE_CACHE_TTL_S = 86_400

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
   * form), inside `cacheBytes`; default half of it. Past it zones are forgotten oldest first,
   * except that one looked up since it was last passed over gets a second chance (CLOCK), so an
   * isolate serving many small zones keeps as many as fit, the busy ones longest.
   */
  zoneCacheBytes?: number
  /** Keys per KV bulk call (Workers KV allows 100). */
  maxKeysPerCall?: number
  /** Above this many keys a cold lookup reads zone keys and heads first, buckets after (two round trips); default 300 (parallel bulk calls of 100). */
  speculativeKeyBudget?: number
  /**
   * The zone-change feed: confirms every held zone with one poll, names newer heads, and tells
   * which zones are hosted. Without it (or while it cannot be reached) zones are confirmed through
   * their head slots. Its clock should be the view's.
   */
  feed?: FeedClient
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
  /** Polls of the zone-change feed (0 without one). */
  feedCalls: number
}

interface ZoneEntry {
  name: string
  head: ZoneHead
  /** Raw zone key value last read (a zone without heads takes its metadata from it). */
  raw: string
  /** Bucket count `buckets` belong to. */
  count: number
  buckets: Map<number, CachedBucket>
  /** Start time of the KV read that last confirmed the zone (through its zone key or slots). */
  confirmedAt: number
  /** Newest head counter the feed named for the zone (at least `head.n` once taken). */
  target: number
  refresh: Promise<ZoneEntry | null> | null
  refreshStartedAt: number
  gone: boolean
  headBytes: number
  /** Looked up since the eviction hand last passed it: it gets a second chance (CLOCK). */
  used: boolean
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

/**
 * Estimated bytes of a zone entry beyond its raw texts: the object, the decoded head, map slots
 * (measured for a small zone by `bench/tools/held-zone-bytes.mjs`).
 */
const ZONE_ENTRY_OVERHEAD = 2048
/**
 * Zones whose entries were evicted for room, remembered with the head the feed last named for
 * them (a map entry, a name and an id: a few hundred bytes each, so the count is bounded well
 * inside the isolate's memory; the oldest go first): reading one again costs its versioned head.
 */
const MAX_KNOWN_ZONES = 50_000
/** Names remembered as "not a zone" when no zone count bounds them. */
const MAX_ABSENT_NAMES = 40_000

/** A versioned bucket key that is not there: the head naming it is older than its retirement. */
class RetiredBucket extends Error {}

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
  /** Candidate names known not to be zones. */
  readonly #absent: AbsentNames
  readonly #feed: FeedClient | undefined
  /** Bucket texts (and, charged to it, heads) within `cacheBytes`. */
  readonly #buckets: BucketCache
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
    feedCalls: 0,
  }

  constructor(kv: KvBulkReader, options: KvZoneViewOptions = {}) {
    this.#kv = kv
    this.#revalidateMs = options.revalidateMs ?? 5
    this.#refreshAheadMs = Math.min(
      options.refreshAheadMs ?? this.#revalidateMs / 2,
      this.#revalidateMs
    )
    this.#cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024
    this.#buckets = new BucketCache(this.#cacheBytes)
    this.#absentTtlMs = options.absentTtlMs ?? DEFAULT_ABSENT_TTL_MS
    this.#maxZones = options.maxZones ?? Number.POSITIVE_INFINITY
    this.#zoneCacheBytes = options.zoneCacheBytes ?? this.#cacheBytes / 2
    this.#bucketMaxAgeMs = options.bucketMaxAgeMs ?? 60_000
    this.#maxKeysPerCall = options.maxKeysPerCall ?? 100
    this.#budget = options.speculativeKeyBudget ?? 300
    this.#now = options.now ?? Date.now
    this.#absent = new AbsentNames(Math.min(4 * this.#maxZones, MAX_ABSENT_NAMES))
    this.#feed = options.feed
    this.#feed?.subscribe((change) => this.#onFeed(change))
  }

  /** Evicted zones (feed mode only): name → the zone id and newest head counter the feed confirms. */
  readonly #known = new Map<string, { id: string; n: number }>()

  async lookup(qname: string, options: LookupOptions = {}): Promise<ZoneLookup | null> {
    this.stats.lookups++
    const name = normalizeName(qname)
    const within = options.within === undefined ? undefined : normalizeName(options.within)
    const arrived = this.#now()
    // The feed is polled while the isolate serves, whatever the query finds.
    if (this.#feed && options.keepAlive)
      this.#feed.refreshAhead(arrived, this.#refreshAheadMs, options.keepAlive)
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await this.#zoneFor(name, within)
      if (!found) return null
      let entry = await this.#fresh(found.entry, arrived, options.keepAlive)
      if (!entry) continue // the zone was deleted meanwhile: look again
      let nodes: Map<string, NodeData>
      let stamp = entry.stamp
      try {
        nodes = await this.#nodes(name, entry, found.speculated)
      } catch (e) {
        if (!(e instanceof RetiredBucket)) throw e
        // The held head is older than its buckets' retirement: confirm the zone again, once.
        entry = await this.#reconfirm(entry, options.keepAlive)
        if (!entry) continue
        stamp = entry.stamp
        try {
          nodes = await this.#nodes(name, entry, null)
        } catch (again) {
          throw again instanceof RetiredBucket
            ? new KvLayoutError(`zone ${entry.name}: ${again.message}`)
            : again
        }
      }
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
    if (!this.#isFresh(entry, arrived - this.#revalidateMs)) return undefined
    this.#refreshAheadIfDue(entry, arrived, keepAlive)
    return entry.stamp
  }

  /** Counters with the current cache size. */
  snapshot(): ZoneViewStats {
    return {
      ...this.stats,
      cacheBytes: this.#buckets.bytes,
      cachedBuckets: this.#buckets.size,
      zones: this.#zones.size,
      feedCalls: this.#feed?.stats.feedCalls ?? 0,
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

  /**
   * Whether candidate `c` needs a read to know if it is a zone: not when the index says it is not
   * hosted or it was found absent; when the index says it may be; otherwise (no complete index)
   * as `otherwise` says.
   */
  #worthReading(c: string, now: number, otherwise: boolean): boolean {
    const hosted = this.#feed?.hosted(c)
    if (hosted === false || this.#absent.has(c, now)) return false
    return hosted === true || otherwise
  }

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
        // Asked again while held: it earns a second chance when room is made (CLOCK).
        e.used = true
        break
      }
    }
    const unknown: string[] = []
    const now = this.#now()
    if (best) {
      // A known zone lists the hosted zones below it: without an index, no other longer suffix
      // can be a zone (a listed subzone found missing a moment ago is not read again).
      const subzones = best.head.meta.subzones
      for (let i = 0; i < bestAt; i++) {
        const c = candidates[i]!
        if (this.#worthReading(c, now, subzones?.includes(c) ?? false)) unknown.push(c)
      }
      if (unknown.length === 0) return { entry: best, speculated: null }
    } else {
      for (const c of candidates) if (this.#worthReading(c, now, true)) unknown.push(c)
      if (unknown.length === 0) return null
    }
    const speculated = await this.#coldRead(name, unknown)
    for (const c of candidates) {
      const e = this.#zones.get(c)
      if (e) return { entry: e, speculated }
    }
    return null
  }

  /**
   * One bulk get: for each zone the feed's window names with a head, that head's versioned key;
   * for the others the zone key and every head slot, and (within budget, without a feed) the
   * name's buckets under every count. A zone whose named head is not there is read the slot way
   * after.
   */
  async #coldRead(name: string, zones: string[]): Promise<Map<string, string | null> | null> {
    const named = new Map<string, { id: string; n: number }>()
    const slotted: string[] = []
    for (const z of zones) {
      const w =
        this.#feed?.window(z) ??
        (this.#known.has(z) ? { op: 'head', ...this.#known.get(z)! } : undefined)
      if (w?.op === 'delete') this.#markAbsent(z)
      else if (w && w.n >= 1) named.set(z, w)
      else slotted.push(z)
    }
    const startedAt = this.#now()
    const [missed, speculated] = await Promise.all([
      named.size > 0 ? this.#coldReadNamed(named, startedAt) : [],
      slotted.length > 0 ? this.#coldReadSlots(name, slotted, startedAt) : null,
    ])
    // A named head not there (expired): that zone is read the slot way.
    if (missed.length > 0) await this.#coldReadSlots(name, missed, startedAt)
    return speculated
  }

  /** Cold read of zones the window names heads for: their versioned heads (and overlays). Returns the zones whose head is not there. */
  async #coldReadNamed(
    named: Map<string, { id: string; n: number }>,
    startedAt: number
  ): Promise<string[]> {
    const keys = [...named].map(([z, w]) => headVersionKey(z, w.id, w.n))
    const values = await this.#bulk(keys, IMMUTABLE_CACHE_TTL_S)
    const missed: string[] = []
    await Promise.all(
      [...named].map(async ([z, w], k) => {
        const text = values.get(keys[k]!) ?? null
        if (text === null || !isHeadOf(text, w.id)) return void missed.push(z)
        const head = await this.#withOverlay(decodeHead(text), IMMUTABLE_CACHE_TTL_S)
        if (!head) return void missed.push(z)
        this.#absent.delete(z)
        const old = this.#zones.get(z)
        if (old && old.head.meta.id === head.meta.id && old.head.n >= head.n) return
        this.#addZone(z, head, '', startedAt)
      })
    )
    return missed
  }

  /** Cold read through zone keys and head slots (today's fixed keys). */
  async #coldReadSlots(
    name: string,
    zones: string[],
    startedAt: number
  ): Promise<Map<string, string | null> | null> {
    const keys: string[] = []
    for (const z of zones) keys.push(zoneKey(z), ...headKeys(z))
    const speculative: string[] = []
    if (!this.#feed) for (const z of zones) speculative.push(...speculativeKeys(name, z))
    const withBuckets = speculative.length > 0 && keys.length + speculative.length <= this.#budget
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
    // A head the feed named while this read was under way is still to be taken.
    const w = this.#feed?.window(name)
    const entry: ZoneEntry = {
      name,
      head,
      raw,
      count: head.meta.layout?.buckets ?? 0,
      buckets: new Map(),
      confirmedAt,
      target: w?.op === 'head' && w.id === head.meta.id ? Math.max(w.n, head.n) : head.n,
      refresh: null,
      refreshStartedAt: 0,
      gone: false,
      used: false,
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
      // Second chance (CLOCK): a zone looked up since the hand last passed goes to the back once;
      // the zone being added is never the one that makes room.
      let victim: ZoneEntry | undefined
      for (const e of this.#zones.values()) {
        if (e === entry) continue
        if (!e.used) {
          victim = e
          break
        }
        e.used = false
        this.#zones.delete(e.name)
        this.#zones.set(e.name, e)
      }
      if (!victim) break
      this.#evict(victim)
    }
    return entry
  }

  /**
   * Remembers that `name` is not a zone: while the index says it is hosted and the feed said
   * nothing of it lately (a false positive of the index), until the index or a feed entry for it
   * changes; otherwise for `absentTtlMs`.
   */
  #markAbsent(name: string): void {
    const now = this.#now()
    const feed = this.#feed
    const named = feed?.window(name)
    // The feed named a head of it while its keys were read (as misses kept at this location):
    // it exists, and the next lookup reads that head.
    if (named?.op === 'head' && named.n >= 1) return
    const untilChanged = feed?.hosted(name) === true && named === undefined
    this.#absent.mark(name, untilChanged ? Number.POSITIVE_INFINITY : now + this.#absentTtlMs, now)
  }

  // ── the feed ──────────────────────────────────────────────────────────────────────────────

  /**
   * What a poll told: held zones it names with a newer head get that head read (one bulk get for
   * all of them, in the background); a delete entry or another zone id forgets the zone; a resync
   * forgets every zone. Names it mentions, and every name after an index change, are no longer
   * known absent.
   */
  #onFeed(change: FeedChange): void {
    if (change.resync) {
      for (const e of [...this.#zones.values()]) this.#forget(e)
      this.#absent.clear()
      this.#known.clear()
    }
    if (change.indexChanged) this.#absent.clear()
    const named: ZoneEntry[] = []
    for (const e of change.entries) {
      this.#absent.delete(e.zone)
      if (this.#known.has(e.zone)) {
        if (e.op === 'head' && e.n >= 1) this.#known.set(e.zone, { id: e.id, n: e.n })
        else this.#known.delete(e.zone)
      }
      const held = this.#zones.get(e.zone)
      if (!held) continue
      if (e.op === 'delete' || e.id !== held.head.meta.id) {
        this.#forget(held)
        continue
      }
      if (e.n > held.target) held.target = e.n
      if (held.target > held.head.n && !held.refresh) named.push(held)
    }
    if (named.length > 0 && change.keepAlive) this.#prefetch(named, change.keepAlive)
  }

  /** Reads the heads a poll named for held zones, in one bulk get, each zone's shared read. */
  #prefetch(entries: ZoneEntry[], keepAlive: KeepAlive): void {
    const startedAt = this.#now()
    const wanted = entries.map((e) => ({ entry: e, n: e.target }))
    const values = this.#bulk(
      wanted.map((w) => headVersionKey(w.entry.name, w.entry.head.meta.id, w.n)),
      IMMUTABLE_CACHE_TTL_S
    )
    for (const { entry, n } of wanted) {
      const own = values.then((v) =>
        this.#takeNamed(entry, n, v.get(headVersionKey(entry.name, entry.head.meta.id, n)) ?? null)
      )
      this.#inBackground(entry, own, startedAt, keepAlive)
    }
  }

  /** Reads the head the feed named for a held zone (one key, plus its overlay key if any). */
  async #readNamed(entry: ZoneEntry): Promise<ZoneEntry | null> {
    const n = entry.target
    const key = headVersionKey(entry.name, entry.head.meta.id, n)
    const text = (await this.#bulk([key], IMMUTABLE_CACHE_TTL_S)).get(key) ?? null
    return this.#takeNamed(entry, n, text)
  }

  /**
   * Takes head n the feed named for a held zone. Not there (it expired): left to the slot path.
   * Another zone's head: the zone is forgotten.
   */
  async #takeNamed(entry: ZoneEntry, n: number, text: string | null): Promise<ZoneEntry | null> {
    if (entry.gone) return null
    if (text === null || n <= entry.head.n) return entry
    if (!isHeadOf(text, entry.head.meta.id)) {
      this.#forget(entry)
      return null
    }
    const head = await this.#withOverlay(decodeHead(text), IMMUTABLE_CACHE_TTL_S)
    if (entry.gone) return null
    if (head && head.n > entry.head.n) this.#apply(entry, head, entry.raw)
    return entry
  }

  // ── freshness ─────────────────────────────────────────────────────────────────────────────

  /**
   * Whether a held zone may answer a query arriving `revalidateMs` after `floor`: no newer head
   * named by the feed is still to be taken, and either a feed poll or a read of the zone's own
   * keys started at or after `floor`.
   */
  #isFresh(entry: ZoneEntry, floor: number): boolean {
    if (entry.gone || entry.target > entry.head.n) return false
    return (
      entry.confirmedAt >= floor || (this.#feed !== undefined && this.#feed.confirmedAt >= floor)
    )
  }

  /**
   * The zone, confirmed for a query that arrived at `arrived`; null if it is gone. With a feed: a
   * head the feed named is read (one read per zone, shared), and a poll is made (one at a time,
   * shared by every zone); when the feed cannot be reached, or no feed is given, the zone's head
   * slots are read (one read per zone, shared). Shared reads are joined with the care described
   * at `#shared`.
   */
  async #fresh(
    entry: ZoneEntry,
    arrived: number,
    keepAlive?: (p: Promise<unknown>) => void
  ): Promise<ZoneEntry | null> {
    const floor = arrived - this.#revalidateMs
    let namedRead = false
    let polled = false
    let slotRead = false
    for (let round = 0; round < 6; round++) {
      if (entry.gone) return null
      if (this.#isFresh(entry, floor)) {
        this.#refreshAheadIfDue(entry, arrived, keepAlive)
        return entry
      }
      if (entry.target > entry.head.n && !namedRead) {
        namedRead = await this.#shared(entry, floor, () => this.#readNamed(entry))
        continue
      }
      if (this.#feed && !polled && !slotRead) {
        polled = true
        if (await this.#feed.confirm(floor, keepAlive)) continue
      }
      if (slotRead) break
      slotRead = await this.#shared(entry, floor, (now) => this.#revalidate(entry, now))
    }
    return entry.gone ? null : entry
  }

  /**
   * Runs `read` as the zone's confirmation read, or joins one in flight that started at or after
   * `floor`. In Workers a promise started by another request never settles if that request ends
   * first (a client that went away), and its continuations never run: a waiter gives up after
   * `SHARED_WAIT_MS` and reads for itself; a read in flight for longer than that is not joined.
   * Whoever started a read clears it. True when this call ran `read` itself.
   */
  async #shared(
    entry: ZoneEntry,
    floor: number,
    read: (startedAt: number) => Promise<ZoneEntry | null>
  ): Promise<boolean> {
    const inflight = entry.refresh
    const startedAt = entry.refreshStartedAt
    if (inflight && startedAt >= floor && this.#now() - startedAt < SHARED_WAIT_MS) {
      const outcome = await settledWithin(inflight, SHARED_WAIT_MS)
      if (outcome.kind === 'value') return false
      if (entry.refresh === inflight) entry.refresh = null
    }
    const now = this.#now()
    const own = read(now)
    entry.refresh = own
    entry.refreshStartedAt = now
    try {
      await own
    } finally {
      if (entry.refresh === own) entry.refresh = null
    }
    return true
  }

  /** Confirms a zone again whatever its last confirmation (a versioned bucket was missing). */
  async #reconfirm(entry: ZoneEntry, keepAlive: KeepAlive | undefined): Promise<ZoneEntry | null> {
    const now = this.#now()
    if (this.#feed && (await this.#feed.confirm(now, keepAlive))) {
      if (entry.target > entry.head.n) await this.#readNamed(entry)
      if (entry.gone) return null
    }
    await this.#revalidate(entry, now)
    return entry.gone ? null : entry
  }

  /** A head whose overlay lives in a key of its own, with the overlay read (one more KV call); null while that key is not visible. */
  async #withOverlay(
    head: ZoneHead,
    cacheTtl: number = SIGNAL_CACHE_TTL_S
  ): Promise<ZoneHead | null> {
    if (head.overlayKey === undefined) return head
    const value = (await this.#bulk([head.overlayKey], cacheTtl)).get(head.overlayKey)
    if (value === null || value === undefined) return null
    return { ...head, overlay: decodeOverlay(value) }
  }

  /**
   * Starts a background confirmation when the last one is older than `refreshAheadMs` and none is
   * in flight: a feed poll while the feed answers (it confirms every zone), else the zone's slots.
   */
  #refreshAheadIfDue(
    entry: ZoneEntry,
    arrived: number,
    keepAlive?: (p: Promise<unknown>) => void
  ): void {
    if (!keepAlive) return
    const feed = this.#feed
    if (feed && !feed.failing) {
      if (Math.max(feed.confirmedAt, entry.confirmedAt) < arrived - this.#refreshAheadMs)
        feed.refreshAhead(arrived, this.#refreshAheadMs, keepAlive)
      return
    }
    if (!entry.refresh && arrived - entry.confirmedAt > this.#refreshAheadMs)
      this.#refreshAhead(entry, keepAlive)
  }

  #refreshAhead(entry: ZoneEntry, keepAlive: (p: Promise<unknown>) => void): void {
    const startedAt = this.#now()
    this.#inBackground(entry, this.#revalidate(entry, startedAt), startedAt, keepAlive)
  }

  /** Makes `own` the zone's read in flight, kept alive by the request, cleared by itself when done. */
  #inBackground(
    entry: ZoneEntry,
    own: Promise<ZoneEntry | null>,
    startedAt: number,
    keepAlive: (p: Promise<unknown>) => void
  ): void {
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

  /** Confirms a zone through its own keys: its head slots (and zone key), see `slot-confirm.ts`. */
  #revalidate(entry: ZoneEntry, startedAt: number): Promise<ZoneEntry | null> {
    this.stats.revalidations++
    return confirmBySlots(entry, startedAt, this.#slotIo)
  }

  readonly #slotIo: SlotConfirmIo<ZoneEntry> = {
    read: (keys) => this.#bulk(keys, SIGNAL_CACHE_TTL_S),
    withOverlay: (head) => this.#withOverlay(head),
    apply: (entry, head, raw) => this.#apply(entry, head, raw),
    forget: (entry) => this.#forget(entry),
    markAbsent: (zone) => this.#markAbsent(zone),
  }

  /** Takes a newer head: drops the buckets rewritten since the one held (all of them after a gap). */
  #apply(entry: ZoneEntry, head: ZoneHead, raw: string): void {
    const count = head.meta.layout?.buckets ?? 0
    const since = entry.head.n
    const contiguous = since > 0 && head.changed.some(([c]) => c === since + 1)
    const held = entry.head.bv
    if (count !== entry.count) this.#buckets.dropAll(entry)
    else if (held && head.bv) this.#dropOtherVersions(entry, held, head.bv)
    else if (!contiguous) this.#buckets.dropAll(entry)
    else
      for (const [c, buckets] of head.changed) {
        if (c <= since) continue
        if (buckets === 'all') {
          this.#buckets.dropAll(entry)
          break
        }
        for (const i of buckets) this.#buckets.drop(entry, i)
      }
    entry.stamp = ++this.#stamps
    entry.head = head
    entry.raw = raw
    entry.count = count
    if (head.n > entry.target) entry.target = head.n
    this.#setHeadBytes(entry, raw.length + head.overlay.size * 128)
  }

  /** Drops the kept buckets whose version the new head changes (the others are the same keys). */
  #dropOtherVersions(entry: ZoneEntry, held: BucketVersions, next: BucketVersions): void {
    for (const i of [...entry.buckets.keys()])
      if (bucketVersion(held, i) !== bucketVersion(next, i)) this.#buckets.drop(entry, i)
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
      if (cached && (cached.versioned || cached.fetchedAt >= staleBefore)) {
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
    const bv = entry.head.bv
    const id = entry.head.meta.id
    const keys = wanted.map((i) => bucketKey(zone, count, i, bv && { id, v: bucketVersion(bv, i) }))
    const values =
      speculated && keys.every((k) => speculated.has(k))
        ? speculated
        : await this.#bulk(keys, bv ? IMMUTABLE_CACHE_TTL_S : undefined)
    this.stats.bucketMisses += wanted.length
    const missing: { name: string; index: number }[] = []
    for (let k = 0; k < wanted.length; k++) {
      const text = values.get(keys[k]!)
      if (text === null || text === undefined) continue
      texts.set(wanted[k]!, text)
      if (entry.stamp === stamp && !entry.gone)
        this.#buckets.store(entry, wanted[k]!, text, bv !== undefined, this.#now())
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
    if (missing.length > 0) {
      // A versioned key is written before any head names it and never read before: missing, it
      // was retired (this head is old), not "not visible yet".
      if (bv)
        throw new RetiredBucket(`bucket ${missing[0]!.index} of ${count} missing at its version`)
      await this.#fromPrevious(entry, missing, nodes)
    }
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

  // ── what the zones take ───────────────────────────────────────────────────────────────────

  #setHeadBytes(entry: ZoneEntry, bytes: number): void {
    const delta = bytes - entry.headBytes
    if (this.#zones.get(entry.name) === entry) this.#zoneBytes += delta
    entry.headBytes = bytes
    this.#buckets.charge(delta)
  }

  #dropZone(entry: ZoneEntry): void {
    this.#buckets.dropAll(entry)
    this.#buckets.charge(-entry.headBytes)
    if (this.#zones.get(entry.name) === entry) this.#zoneBytes -= entry.headBytes
    entry.headBytes = 0
  }

  /**
   * Forgets a zone for room. With the feed, its id and head counter are kept: the feed updates
   * them as it names the zone, so reading it again needs only its versioned head.
   */
  #evict(entry: ZoneEntry): void {
    this.#forget(entry)
    if (!this.#feed || entry.head.n < 1 || entry.target > entry.head.n) return
    if (this.#known.size >= MAX_KNOWN_ZONES) this.#known.delete(this.#known.keys().next().value!)
    this.#known.set(entry.name, { id: entry.head.meta.id, n: entry.head.n })
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
