/**
 * @module The isolate's zone view: one module-level KvZoneView, so zone heads and bucket texts stay
 * cached across requests, confirmed through the zone-change feed when the worker has its bindings
 * (one poll for every zone held) and through the zones' head slots otherwise (kv-layout README).
 */
import {
  IMMUTABLE_CACHE_TTL_S,
  KvZoneView,
  type KvBulkReader,
  type KvZoneViewOptions,
} from '@edgedns/kv-layout'
import {
  FeedClient,
  released,
  type FeedPoller,
  type PollReply,
  type PollRequest,
} from '@edgedns/zone-feed'
import { AnswerCache } from './answer-cache.ts'
import {
  PRODUCTION_BUCKET_MAX_AGE_MS,
  PRODUCTION_FEED_REPLICAS,
  PRODUCTION_REVALIDATE_MS,
  type DohEnv,
} from './env.ts'

let binding: KVNamespace | undefined
/** The environment of the current request: Durable Object stubs are made per request from it. */
let currentEnv: DohEnv | undefined
/** Where the isolate runs, from the requests' `cf` (the replicas it polls are placed there). */
let region: string | undefined

/** Reads through the binding of the current request (every request of an isolate has the same). */
const reader: KvBulkReader = {
  get(keys, options) {
    if (!binding) throw new Error('ZONES_KV binding missing')
    return binding.get(keys, options)
  },
}

let view: KvZoneView | undefined
let answers: AnswerCache | undefined

const numberOr = (value: string | undefined, fallback: number): number => {
  const n = Number(value)
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback
}

/**
 * Longest an encoded answer is reused, whatever the bucket age limit: signed answers carry
 * signatures with an expiry, and a minute keeps them far inside it.
 */
const ANSWER_MAX_AGE_MS = 60_000

/** Bucket age limit: "0" means none. */
const bucketMaxAge = (env: DohEnv): number => {
  const ms = numberOr(env.BUCKET_MAX_AGE_MS, PRODUCTION_BUCKET_MAX_AGE_MS)
  return ms === 0 ? Number.POSITIVE_INFINITY : ms
}

/** The view's options from the environment (deployed defaults where a setting is absent); the feed comes from `zoneView`. */
export function viewOptions(env: DohEnv): KvZoneViewOptions {
  const revalidateMs = numberOr(env.REVALIDATE_MS, PRODUCTION_REVALIDATE_MS)
  return {
    revalidateMs,
    refreshAheadMs: numberOr(env.REFRESH_AHEAD_MS, revalidateMs / 2),
    cacheBytes: numberOr(env.CACHE_MB, 64) * 1024 * 1024,
    bucketMaxAgeMs: bucketMaxAge(env),
  }
}

/**
 * A Durable Object location hint for a request's `cf` (continent, longitude), or undefined when
 * it says nothing usable.
 */
export function locationHint(
  cf: { continent?: unknown; longitude?: unknown } | undefined
): string | undefined {
  const lon = Number(cf?.longitude)
  switch (cf?.continent) {
    case 'NA':
      return Number.isFinite(lon) && lon < -100 ? 'wnam' : 'enam'
    case 'SA':
      return 'sam'
    case 'EU':
      return Number.isFinite(lon) && lon >= 20 ? 'eeur' : 'weur'
    case 'AS':
      return 'apac'
    case 'OC':
    case 'AN':
      return 'oc'
    case 'AF':
      return 'afr'
    default:
      return undefined
  }
}

/** The objects a poller calls: the primary, and replica k of a region. */
export interface FeedObjects {
  primary(): FeedPoller
  /** Undefined when the environment has no replicas. */
  replica(region: string | undefined, k: number): FeedPoller | undefined
}

/**
 * Polls replica `first` of the isolate's region, then the next replica, then the primary, each
 * only when the one before failed; with no replicas (`count` 0), the primary.
 */
export function feedPoller(
  objects: FeedObjects,
  count: number,
  first: number,
  where: () => string | undefined
): FeedPoller {
  return {
    async poll(request: PollRequest): Promise<PollReply> {
      const place = where()
      for (let i = 0; i < Math.min(count, 2); i++) {
        const replica = objects.replica(place, (first + i) % count)
        if (!replica) break
        try {
          return released(await replica.poll(request))
        } catch {
          // the next replica, then the primary
        }
      }
      return released(await objects.primary().poll(request))
    },
  }
}

/** The feed's objects through the current request's bindings; undefined without `ZONE_FEED`. */
function feedObjects(env: DohEnv): FeedObjects | undefined {
  if (!env.ZONE_FEED) return undefined
  const stub = (ns: DurableObjectNamespace, name: string, hint?: string): FeedPoller =>
    ns.get(
      ns.idFromName(name),
      hint ? { locationHint: hint as DurableObjectLocationHint } : undefined
    ) as unknown as FeedPoller
  return {
    primary: () => stub(currentEnv!.ZONE_FEED!, 'primary'),
    replica: (place, k) => {
      const ns = currentEnv?.ZONE_FEED_REPLICA
      return ns ? stub(ns, `replica:${place ?? 'any'}:${k}`, place) : undefined
    },
  }
}

/** The isolate's feed client over the environment's bindings, or undefined without them. */
function feedClient(env: DohEnv): FeedClient | undefined {
  const objects = feedObjects(env)
  if (!objects) return undefined
  const count = env.ZONE_FEED_REPLICA ? numberOr(env.FEED_REPLICAS, PRODUCTION_FEED_REPLICAS) : 0
  const first = Math.floor(Math.random() * Math.max(1, count))
  return new FeedClient(
    feedPoller(objects, Math.floor(count), first, () => region),
    {
      watchMs: count === 0 ? numberOr(env.FEED_WATCH_MS, 0) : 0,
      loadIndex: async (key) => {
        if (!binding) throw new Error('ZONES_KV binding missing')
        const value = await binding.get(key, {
          type: 'arrayBuffer',
          cacheTtl: IMMUTABLE_CACHE_TTL_S,
        })
        return value === null ? null : new Uint8Array(value)
      },
    }
  )
}

/** Notes where the isolate runs from a request's `cf` (the first usable one is kept). */
export function noteLocation(cf: { continent?: unknown; longitude?: unknown } | undefined): void {
  region ??= locationHint(cf)
}

/** The isolate's view; its options (and its feed, if bound) come from the first request's environment. */
export function zoneView(env: DohEnv): KvZoneView {
  binding = env.ZONES_KV
  currentEnv = env
  if (!view) {
    const feed = feedClient(env)
    view = new KvZoneView(reader, { ...viewOptions(env), ...(feed ? { feed } : {}) })
  }
  return view
}

/** The isolate's cache of encoded wire answers (`ANSWER_CACHE` entries, 0 = off, within `ANSWER_CACHE_MB`). */
export function answerCache(env: DohEnv): AnswerCache | undefined {
  const entries = numberOr(env.ANSWER_CACHE, 40_000)
  if (entries === 0) return undefined
  answers ??= new AnswerCache(
    zoneView(env),
    entries,
    Math.min(bucketMaxAge(env), ANSWER_MAX_AGE_MS),
    numberOr(env.ANSWER_CACHE_MB, 20) * 1024 * 1024
  )
  return answers
}
