/**
 * @module A KV read at one modelled production location (the strict KV binding's
 * `KV_MODEL=production` mode): the location's edge cache (`@edgedns/kv-layout/edge-model`) in
 * front of a namespace that plays central storage.
 */
import {
  checkBulkSize,
  readOptions,
  typedValue,
  type EdgeCache,
  type KvGetOptions,
} from '@edgedns/kv-layout/edge-model'

/** A read through one location's edge cache: kept keys from it, the rest from `kv` (central), then kept. */
export async function edgeGet(
  kv: KVNamespace,
  edge: EdgeCache,
  key: string | string[],
  options: KvGetOptions | undefined
): Promise<unknown> {
  const bulk = Array.isArray(key)
  const { type, cacheTtl } = readOptions(options, bulk)
  const keys = bulk ? key : [key]
  if (bulk) checkBulkSize(keys)
  const values = new Map<string, string | null>()
  const missing: string[] = []
  for (const k of keys) {
    const kept = edge.hit(k)
    if (kept) values.set(k, kept.value)
    else missing.push(k)
  }
  if (missing.length > 0) {
    const fetched = bulk
      ? await kv.get(missing, 'text')
      : new Map([[key, await kv.get(key, 'text')]])
    for (const k of missing) {
      const value = fetched.get(k) ?? null
      edge.keep(k, value, cacheTtl)
      values.set(k, value)
    }
  }
  if (!bulk) return typedValue(values.get(key) ?? null, type)
  return new Map(keys.map((k) => [k, typedValue(values.get(k) ?? null, type)]))
}
