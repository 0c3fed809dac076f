/**
 * @module A KV read at one modelled production location (the strict KV binding's
 * `KV_MODEL=production` mode): the location's edge cache (`@edgedns/kv-layout/edge-model`) in
 * front of a namespace that plays central storage.
 */
import {
  checkBulkSize,
  readOptions,
  readsBytes,
  typedValue,
  type EdgeCache,
  type KvGetOptions,
  type KvValue,
} from '@edgedns/kv-layout/edge-model'

/**
 * A read through one location's edge cache: kept keys from it, the rest from `kv` (central), then
 * kept as central returned them (bytes for a read of bytes, else text).
 */
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
  const values = new Map<string, KvValue | null>()
  const missing: string[] = []
  for (const k of keys) {
    const kept = edge.hit(k)
    if (kept) values.set(k, kept.value)
    else missing.push(k)
  }
  if (missing.length > 0) {
    const fetched: Map<string, KvValue | null> = bulk
      ? await kv.get(missing, 'text')
      : new Map([[key, await single(kv, key, readsBytes(type))]])
    for (const k of missing) {
      const value = fetched.get(k) ?? null
      edge.keep(k, value, cacheTtl)
      values.set(k, value)
    }
  }
  if (!bulk) return typedValue(values.get(key) ?? null, type)
  return new Map(keys.map((k) => [k, typedValue(values.get(k) ?? null, type)]))
}

async function single(kv: KVNamespace, key: string, bytes: boolean): Promise<KvValue | null> {
  if (!bytes) return kv.get(key, 'text')
  const buffer = await kv.get(key, 'arrayBuffer')
  return buffer === null ? null : new Uint8Array(buffer)
}
