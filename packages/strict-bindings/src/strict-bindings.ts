/**
 * @module Strict mode of the D1 and KV bindings: wrappers that throw when a call would breach a
 * production limit that local Miniflare does not enforce (or enforces more loosely). Applied by the
 * API worker and the ZoneBuilder Durable Object when the `STRICT_LIMITS` var is `1`; the test suite
 * runs with it on, so a breach fails the test that caused it instead of surfacing in production.
 *
 * Per-invocation counters (KV operations) are scoped with `inInvocation`, which the entry points
 * wrap around each request, cron event, Durable Object RPC call and alarm. Every breach is also
 * recorded (`takeBreaches`), so a breach swallowed by a retry loop still fails the test.
 *
 * With `KV_MODEL=production` (which turns the strict bindings on too) the KV wrapper is also one
 * production KV location: reads go through an edge cache of its own with the rules of
 * `@edgedns/kv-layout/edge-model` (a value or a miss is kept for the read's `cacheTtl`), writes
 * go to the local store at once. Each wrapper instance is one location: the DoH worker keeps one
 * per isolate, the API worker one per env object.
 */
import { PRODUCTION_LIMITS } from '@edgedns/platform-limits'
import { strictD1 } from './strict-d1.ts'
import { strictKv } from './strict-kv.ts'

export { inInvocation, ProductionLimitError, takeBreaches } from './limits.ts'
export { parseSql } from './sql-patterns.ts'
export { strictD1 } from './strict-d1.ts'
export { strictKv, type StrictKvOptions } from './strict-kv.ts'

export interface StrictCapableEnv {
  STRICT_LIMITS?: string
  KV_MODEL?: string
  KV_KEY_WRITE_INTERVAL_MS?: string
  DB: D1Database
  ZONES_KV: KVNamespace
}

export function strictLimitsOn(env: { STRICT_LIMITS?: string }): boolean {
  return env.STRICT_LIMITS === '1' || env.STRICT_LIMITS === 'true'
}

/** `KV_MODEL=production`: KV reads through a modelled edge cache per wrapper (tests, benchmarks). */
export function productionKvModelOn(env: { KV_MODEL?: string }): boolean {
  return env.KV_MODEL === 'production'
}

/** Whether the strict wrappers apply: `STRICT_LIMITS` on, or the production KV model (which needs them). */
export function strictBindingsOn(env: { STRICT_LIMITS?: string; KV_MODEL?: string }): boolean {
  return strictLimitsOn(env) || productionKvModelOn(env)
}

const wrappedEnvs = new WeakMap<object, object>()

/**
 * The env with strict D1 and KV bindings when `strictBindingsOn`, else the env itself. The
 * wrapped env is cached per env object, so the per-key write history survives across requests.
 */
export function applyStrictLimits<E extends StrictCapableEnv>(env: E): E {
  if (!strictBindingsOn(env)) return env
  const cached = wrappedEnvs.get(env)
  if (cached) return cached as E
  const interval = Number(
    env.KV_KEY_WRITE_INTERVAL_MS ?? PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs
  )
  const db = strictD1(env.DB)
  const kv = strictKv(env.ZONES_KV, {
    writeIntervalMs: Number.isFinite(interval)
      ? interval
      : PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs,
    edgeCache: productionKvModelOn(env),
  })
  // The other D1 shards (`DB_0`, `DB_1`, …) are wrapped on first use.
  const shards = new Map<string, D1Database>()
  const shard = (target: E, prop: string): D1Database => {
    let wrappedShard = shards.get(prop)
    if (!wrappedShard) {
      wrappedShard = strictD1(Reflect.get(target, prop) as D1Database)
      shards.set(prop, wrappedShard)
    }
    return wrappedShard
  }
  const wrapped = new Proxy(env, {
    get: (target, prop) =>
      prop === 'DB'
        ? db
        : prop === 'ZONES_KV'
          ? kv
          : typeof prop === 'string' && /^DB_\d+$/.test(prop) && Reflect.get(target, prop)
            ? shard(target, prop)
            : Reflect.get(target, prop),
  })
  wrappedEnvs.set(env, wrapped)
  return wrapped
}
