/**
 * @module The isolate's zone view: one module-level KvZoneView, so zone metadata (and the apex
 * data inside it) stays cached across requests for a bounded time (design §2 invariant 5).
 */
import { KvZoneView, type KvBulkReader } from '@edgedns/kv-layout'

/** How long zone metadata, found or missing, is reused before KV is asked again. */
export const ZONE_CACHE_TTL_MS = 5000
export const ZONE_CACHE_SIZE = 1000

let binding: KVNamespace | undefined

/** Reads through the binding of the current request (every request of an isolate has the same). */
const reader: KvBulkReader = {
  get(keys, type) {
    if (!binding) throw new Error('ZONES_KV binding missing')
    return binding.get(keys, type)
  },
}

const view = new KvZoneView(reader, { cacheTtlMs: ZONE_CACHE_TTL_MS, cacheSize: ZONE_CACHE_SIZE })

export function zoneView(kv: KVNamespace): KvZoneView {
  binding = kv
  return view
}
