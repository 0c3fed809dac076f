/**
 * @module What production code gets instead of the strict harness: the same names, doing nothing.
 * `pnpm run deploy` bundles the workers with `@edgedns/strict-bindings` aliased to this module
 * (wrangler's `--alias`), so the harness (its SQL reader, KV model and counters) never ships;
 * `wrangler dev`, the tests and the benchmarks bundle the real one and switch it on by variables.
 */
import type { StrictCapableEnv } from './strict-bindings.ts'

export function applyStrictLimits<E extends StrictCapableEnv>(env: E): E {
  return env
}

export function inInvocation<T>(fn: () => T): T {
  return fn()
}

export function strictBindingsOn(_env: { STRICT_LIMITS?: string; KV_MODEL?: string }): boolean {
  return false
}

export function productionKvModelOn(_env: { KV_MODEL?: string }): boolean {
  return false
}

export function strictKv(kv: KVNamespace): KVNamespace {
  return kv
}
