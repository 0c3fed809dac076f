/**
 * @module The isolate's zone view: one module-level KvZoneView, so zone heads and bucket texts stay
 * cached across requests, revalidated through the zone's head slots (kv-layout README).
 */
import { KvZoneView, type KvBulkReader, type KvZoneViewOptions } from '@edgedns/kv-layout'
import { AnswerCache } from './answer-cache.ts'
import { PRODUCTION_BUCKET_MAX_AGE_MS, PRODUCTION_REVALIDATE_MS, type DohEnv } from './env.ts'

let binding: KVNamespace | undefined

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

/** The view's options from the environment (deployed defaults where a setting is absent). */
export function viewOptions(env: DohEnv): KvZoneViewOptions {
  const revalidateMs = numberOr(env.REVALIDATE_MS, PRODUCTION_REVALIDATE_MS)
  return {
    revalidateMs,
    refreshAheadMs: numberOr(env.REFRESH_AHEAD_MS, revalidateMs / 2),
    cacheBytes: numberOr(env.CACHE_MB, 64) * 1024 * 1024,
    bucketMaxAgeMs: bucketMaxAge(env),
  }
}

/** The isolate's view; its options come from the first request's environment. */
export function zoneView(env: DohEnv): KvZoneView {
  binding = env.ZONES_KV
  view ??= new KvZoneView(reader, viewOptions(env))
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
