/**
 * @module Bindings of the DoH worker: the zones KV namespace, read only.
 */

export interface DohEnv {
  /** Written by the ZoneBuilder (layout: `@edgedns/kv-layout`); this worker only reads it. */
  ZONES_KV: KVNamespace
}
