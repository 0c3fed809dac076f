/**
 * @module Bindings and settings of the DoH worker. With `STRICT_LIMITS=1` (the test suite) reads
 * go through the strict KV wrapper, which fails on production-limit breaches; with
 * `KV_MODEL=production` (tests, benchmarks) that wrapper is also the isolate's production KV
 * location, with an edge cache of its own.
 */
import { productionKvModelOn, strictBindingsOn, strictKv } from '@edgedns/strict-bindings'

export interface DohEnv {
  /** Written by the ZoneBuilder (layout: `@edgedns/kv-layout`); this worker only reads it. */
  ZONES_KV: KVNamespace
  /**
   * How old (ms) the last confirmation of a zone may be before a query waits for a fresh one: with
   * the feed, one poll confirming every zone the isolate holds; without it (or while it fails), one
   * KV read of the zone's head slots shared by all waiting queries. Default
   * `PRODUCTION_REVALIDATE_MS`; local development sets a few milliseconds in `.dev.vars`.
   */
  REVALIDATE_MS?: string
  /**
   * Age (ms) of a zone's last confirmation after which a query answered from memory starts the
   * next one in the background (no query waits for it). Default half of `REVALIDATE_MS`.
   */
  REFRESH_AHEAD_MS?: string
  /** Megabytes of zone data the isolate keeps (held zones, bucket texts, versions tables). Default 64. */
  CACHE_MB?: string
  /**
   * Longest (ms) the isolate keeps a bucket before reading it again; "0" = no limit (local KV,
   * which has no edge cache). Default `PRODUCTION_BUCKET_MAX_AGE_MS`.
   */
  BUCKET_MAX_AGE_MS?: string
  /** Encoded wire answers the isolate keeps for reuse (0 = none), within `ANSWER_CACHE_MB`. Default 40000. */
  ANSWER_CACHE?: string
  /** Megabytes the answer cache may hold, apart from `CACHE_MB`. Default 20. */
  ANSWER_CACHE_MB?: string
  /**
   * Secret (a Worker secret in production) the zones' DNSSEC private keys are sealed with; the
   * API worker must have the same value. Needed only to answer DO=1 queries for signed zones.
   */
  DNSSEC_KEY_ENCRYPTION_KEY?: string
  /**
   * The zone-change feed's primary (class `ZoneFeed` of the API worker, at `idFromName('primary')`).
   * Absent: no feed, zones are confirmed through their head slots.
   */
  ZONE_FEED?: DurableObjectNamespace
  /** The feed's regional replicas (class `ZoneFeedReplica`, at `idFromName('replica:<region>:<k>')`). */
  ZONE_FEED_REPLICA?: DurableObjectNamespace
  /**
   * Replicas per region the isolate polls one of (the next one, then the primary, when it fails);
   * "0" = poll the primary directly (local development and tests). Default `PRODUCTION_FEED_REPLICAS`.
   */
  FEED_REPLICAS?: string
  /**
   * While polling the primary directly (`FEED_REPLICAS` "0"), keep a watch open on it: a poll it
   * holds until an entry arrives, at most this many ms, so a change is known as it is appended
   * (local development: the poll interval would otherwise dominate a change's few milliseconds).
   * Unset or "0": no watch (deployed: isolates poll replicas, which hold no watches).
   */
  FEED_WATCH_MS?: string
  /** "1": `GET /stats` returns the view's counters (benchmarks; never set in production). */
  DOH_STATS?: string
  STRICT_LIMITS?: string
  /**
   * "production": reads go through a model of a production KV location's edge cache, one per
   * isolate (tests and benchmarks; never set in production, where KV is the real thing).
   */
  KV_MODEL?: string
}

/**
 * Deployed default: the feed is polled once a second while the isolate serves (a change shows
 * within about that), and without the feed, head slot reads are served from KV's edge cache for
 * up to 30 s anyway, so confirming more often per zone buys no freshness and costs billed reads.
 */
export const PRODUCTION_REVALIDATE_MS = 1000
/** Deployed default: KV's edge cache may serve a bucket up to 60 s old right after it changed. */
export const PRODUCTION_BUCKET_MAX_AGE_MS = 60_000
/** Deployed default: feed replicas per region, so that no single object takes every isolate's poll. */
export const PRODUCTION_FEED_REPLICAS = 2

let strict: { from: KVNamespace; env: DohEnv } | null = null

export function strictDohEnv(env: DohEnv): DohEnv {
  if (!strictBindingsOn(env)) return env
  if (strict?.from !== env.ZONES_KV)
    strict = {
      from: env.ZONES_KV,
      env: {
        ...env,
        ZONES_KV: strictKv(env.ZONES_KV, {
          writeIntervalMs: 0,
          edgeCache: productionKvModelOn(env),
        }),
      },
    }
  return strict.env
}
