/**
 * @module Bindings of the DoH worker: the zones KV namespace, read only. With `STRICT_LIMITS=1`
 * (the test suite) reads go through the strict KV wrapper, which fails on production-limit breaches.
 */
import { strictKv, strictLimitsOn } from '../../api/src/platform/strict-bindings.ts'

export interface DohEnv {
  /** Written by the ZoneBuilder (layout: `@edgedns/kv-layout`); this worker only reads it. */
  ZONES_KV: KVNamespace
  STRICT_LIMITS?: string
}

let strict: { from: KVNamespace; env: DohEnv } | null = null

export function strictDohEnv(env: DohEnv): DohEnv {
  if (!strictLimitsOn(env)) return env
  if (strict?.from !== env.ZONES_KV) strict = { from: env.ZONES_KV, env: { ZONES_KV: strictKv(env.ZONES_KV, { writeIntervalMs: 0 }) } }
  return strict.env
}
