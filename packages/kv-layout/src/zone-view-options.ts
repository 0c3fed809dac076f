/**
 * @module What a zone view is given (`KvZoneViewOptions`) and what it counts (`ZoneViewStats`).
 */
import type { FeedClient } from '@edgedns/zone-feed'

/** Bytes of held zones, bucket texts and versions tables an isolate keeps when `cacheBytes` is not given. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024

/**
 * The part of `cacheBytes` held zones may take by default: all but an eighth, which stays for the
 * bucket texts of zones with more than one (a small zone's only bucket is held with it, inside its
 * share; the eighth keeps a flood of small zones from starving the buckets of large ones).
 */
export function zoneShareOf(cacheBytes: number): number {
  return cacheBytes - cacheBytes / 8
}

/**
 * The part of `cacheBytes` the kept versions tables may take (`head-side-keys.ts`): half of what
 * the held zones' share leaves (a sixteenth by default), so the large zones that have tables keep
 * the other half for their bucket texts.
 */
export function tableShareOf(cacheBytes: number, zoneCacheBytes: number): number {
  return Math.max(0, cacheBytes - zoneCacheBytes) / 2
}

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
  /**
   * Bytes of held zones, bucket texts and kept versions tables the isolate keeps, across zones;
   * default `DEFAULT_CACHE_BYTES`.
   */
  cacheBytes?: number
  /** How long "no hosted zone here" is trusted for a name under no known zone; default `DEFAULT_ABSENT_TTL_MS`. */
  absentTtlMs?: number
  /**
   * Longest an isolate keeps a bucket text before reading it again, whatever the heads say
   * (production KV may serve a stale copy from its edge cache right after a change); default 60 s.
   */
  bucketMaxAgeMs?: number
  /**
   * Bytes the held zones may take (see `held-head.ts`), with their inline buckets
   * (`bucket-cache.ts`), inside `cacheBytes`; default `zoneShareOf(cacheBytes)` (seven eighths).
   * Past it zones are forgotten oldest first, except that one looked up since it was last passed
   * over gets a second chance (CLOCK), so an isolate serving many small zones keeps as many as
   * fit, the busy ones longest.
   */
  zoneCacheBytes?: number
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
  /** Bytes counted against `cacheBytes`: held zones, bucket texts and versions tables. */
  cacheBytes: number
  /** Bytes of the kept versions tables (part of `cacheBytes`). */
  versionsTableBytes: number
  cachedBuckets: number
  zones: number
  /** Polls of the zone-change feed (0 without one). */
  feedCalls: number
}
