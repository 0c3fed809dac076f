/**
 * @module ZoneView over Workers KV with an isolate cache that never trusts a timer alone.
 *
 * An isolate holds, per zone it has answered for, the zone's newest head and bucket texts,
 * bounded in bytes (`held-zones.ts`, `bucket-cache.ts`). Before answering from a zone the view
 * makes sure it was confirmed by a read that started at most `revalidateMs` before the query: with
 * a zone-change feed (`@edgedns/zone-feed`), the last poll, which confirms every held zone at once
 * and names newer heads (read under versioned keys, `feed-heads.ts`); without it, or while it
 * cannot be reached, the zone's own head slots (`slot-confirm.ts`). Such reads are shared by the
 * queries waiting on them (`zone-reads-in-flight.ts`). A zone not held is read cold
 * (`cold-read.ts`): by the head the feed names, else by its zone key and slots; the feed's
 * hosted-zone index rules out suffixes that are no zone, so a name under no hosted zone costs no
 * KV read. Nodes come from the head's overlay and the buckets (`zone-nodes.ts`); a bucket that is
 * missing is never read as "no such name". Heads of another zone of the same name (deleted and
 * created again) are never taken: a head names its zone's id.
 */
import { lookupName } from '@edgedns/dns-facts'
import type { FeedClient, KeepAlive } from '@edgedns/zone-feed'
import { AbsentNames } from './absent-names.ts'
import { BucketCache } from './bucket-cache.ts'
import { coldRead, type ColdReadIo } from './cold-read.ts'
import { readNamed, takeFeedChange, type FeedHeadsIo } from './feed-heads.ts'
import { HeadSideKeys } from './head-side-keys.ts'
import { HeldZones } from './held-zones.ts'
import { KvLayoutError } from './codec.ts'
import { bulkGet, SIGNAL_CACHE_TTL_S, type KvBulkReader } from './kv-reads.ts'
import { isInZone, zoneCandidates } from './names.ts'
import { confirmBySlots, type SlotConfirmIo } from './slot-confirm.ts'
import { RetiredBucket, type ZoneEntry } from './zone-entry.ts'
import { inBackground, joinOrRead } from './zone-reads-in-flight.ts'
import { readNodes, type NodesIo } from './zone-nodes.ts'
import {
  DEFAULT_ABSENT_TTL_MS,
  DEFAULT_CACHE_BYTES,
  type KvZoneViewOptions,
  type ZoneViewStats,
  tableShareOf,
  zoneShareOf,
} from './zone-view-options.ts'
import type { LookupOptions, NodeData, ZoneHead, ZoneLookup, ZoneView } from './types.ts'

/** Names remembered as "not a zone". */
const MAX_ABSENT_NAMES = 40_000

export class KvZoneView implements ZoneView {
  readonly #kv: KvBulkReader
  readonly #revalidateMs: number
  readonly #refreshAheadMs: number
  readonly #absentTtlMs: number
  readonly #now: () => number
  /** Held zones, bucket texts and kept versions tables within `cacheBytes`. */
  readonly #buckets: BucketCache
  readonly #held: HeldZones
  /** Candidate names known not to be zones. */
  readonly #absent: AbsentNames
  readonly #feed: FeedClient | undefined
  readonly stats: ZoneViewStats = {
    lookups: 0,
    kvCalls: 0,
    kvKeys: 0,
    revalidations: 0,
    bucketHits: 0,
    bucketMisses: 0,
    cacheBytes: 0,
    versionsTableBytes: 0,
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
    const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES
    this.#buckets = new BucketCache(cacheBytes)
    this.#feed = options.feed
    const zoneCacheBytes = options.zoneCacheBytes ?? zoneShareOf(cacheBytes)
    this.#held = new HeldZones(this.#buckets, zoneCacheBytes, this.#feed !== undefined)
    this.#sideKeys = new HeadSideKeys((keys, cacheTtl) => this.#bulk(keys, cacheTtl), {
      capBytes: tableShareOf(cacheBytes, zoneCacheBytes),
      charge: (delta) => this.#buckets.charge(delta),
    })
    this.#absentTtlMs = options.absentTtlMs ?? DEFAULT_ABSENT_TTL_MS
    this.#now = options.now ?? Date.now
    this.#absent = new AbsentNames(MAX_ABSENT_NAMES)
    this.#nodesIo = {
      read: (keys, cacheTtl) => this.#bulk(keys, cacheTtl),
      buckets: this.#buckets,
      now: () => this.#now(),
      bucketMaxAgeMs: options.bucketMaxAgeMs ?? 60_000,
      stats: this.stats,
    }
    this.#coldIo = {
      read: (keys, cacheTtl) => this.#bulk(keys, cacheTtl),
      feed: this.#feed,
      held: this.#held,
      withOverlay: (head, cacheTtl) => this.#withOverlay(head, cacheTtl),
      markAbsent: (zone) => this.#markAbsent(zone),
      notAbsent: (zone) => this.#absent.delete(zone),
      add: (name, head, raw, confirmedAt) => this.#addZone(name, head, raw, confirmedAt),
      now: () => this.#now(),
    }
    this.#feedIo = {
      read: (keys, cacheTtl) => this.#bulk(keys, cacheTtl),
      held: this.#held,
      absent: this.#absent,
      withOverlay: (head, cacheTtl) => this.#withOverlay(head, cacheTtl),
      now: () => this.#now(),
    }
    this.#feed?.subscribe((change) => takeFeedChange(this.#feedIo, change))
  }

  readonly #nodesIo: NodesIo
  readonly #sideKeys: HeadSideKeys
  readonly #coldIo: ColdReadIo
  readonly #feedIo: FeedHeadsIo

  async lookup(qname: string, options: LookupOptions = {}): Promise<ZoneLookup | null> {
    this.stats.lookups++
    const name = lookupName(qname)
    const within = options.within === undefined ? undefined : lookupName(options.within)
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
        nodes = await readNodes(this.#nodesIo, name, entry, found.speculated)
      } catch (e) {
        if (!(e instanceof RetiredBucket)) throw e
        // The held head is older than its buckets' retirement: confirm the zone again, once.
        entry = await this.#reconfirm(entry, options.keepAlive)
        if (!entry) continue
        stamp = entry.stamp
        try {
          nodes = await readNodes(this.#nodesIo, name, entry, null)
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
    const entry = this.#held.get(zone)
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
    const entry = this.#held.get(zone)
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
      versionsTableBytes: this.#sideKeys.bytes,
      cachedBuckets: this.#buckets.size,
      zones: this.#held.size,
      feedCalls: this.#feed?.stats.feedCalls ?? 0,
    }
  }

  /** Drops everything cached (tests). */
  clearCache(): void {
    this.#held.clear(false)
    this.#sideKeys.clear()
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
      const e = this.#held.get(candidates[i]!)
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
    const speculated = await coldRead(this.#coldIo, name, unknown)
    for (const c of candidates) {
      const e = this.#held.get(c)
      if (e) return { entry: e, speculated }
    }
    return null
  }

  /** Holds a zone read at `confirmedAt`; a head the feed named while it was read is still to be taken. */
  #addZone(name: string, head: ZoneHead, raw: string, confirmedAt: number): ZoneEntry {
    const w = this.#feed?.window(name)
    const target = w?.op === 'head' && w.id === head.meta.id ? w.n : head.n
    return this.#held.add(name, head, raw, confirmedAt, target)
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
        namedRead = await joinOrRead(entry, floor, this.#now, () => readNamed(this.#feedIo, entry))
        continue
      }
      if (this.#feed && !polled && !slotRead) {
        polled = true
        if (await this.#feed.confirm(floor, keepAlive)) continue
      }
      if (slotRead) break
      slotRead = await joinOrRead(entry, floor, this.#now, (now) => this.#revalidate(entry, now))
    }
    return entry.gone ? null : entry
  }

  /** Confirms a zone again whatever its last confirmation (a versioned bucket was missing). */
  async #reconfirm(entry: ZoneEntry, keepAlive: KeepAlive | undefined): Promise<ZoneEntry | null> {
    const now = this.#now()
    if (this.#feed && (await this.#feed.confirm(now, keepAlive))) {
      if (entry.target > entry.head.n) await readNamed(this.#feedIo, entry)
      if (entry.gone) return null
    }
    await this.#revalidate(entry, now)
    return entry.gone ? null : entry
  }

  /** A head with the keys it names read (see HeadSideKeys); null while one is not visible. */
  #withOverlay(head: ZoneHead, cacheTtl?: number): Promise<ZoneHead | null> {
    return this.#sideKeys.resolve(head, cacheTtl)
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
    inBackground(entry, this.#revalidate(entry, startedAt), startedAt, keepAlive)
  }

  /** Confirms a zone through its own keys: its head slots (and zone key), see `slot-confirm.ts`. */
  #revalidate(entry: ZoneEntry, startedAt: number): Promise<ZoneEntry | null> {
    this.stats.revalidations++
    return confirmBySlots(entry, startedAt, this.#slotIo)
  }

  readonly #slotIo: SlotConfirmIo<ZoneEntry> = {
    read: (keys) => this.#bulk(keys, SIGNAL_CACHE_TTL_S),
    withOverlay: (head) => this.#withOverlay(head),
    apply: (entry, head, raw) => this.#held.apply(entry, head, raw),
    forget: (entry) => this.#held.forget(entry),
    markAbsent: (zone) => this.#markAbsent(zone),
  }

  /** One round trip for any number of keys (see `bulkGet`). */
  #bulk(keys: string[], cacheTtl?: number): Promise<Map<string, string | null>> {
    return bulkGet(this.#kv, keys, cacheTtl, this.stats)
  }
}
