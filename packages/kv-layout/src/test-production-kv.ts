/**
 * @module Test support (never part of a worker bundle): a model of production Workers KV's
 * consistency, on a virtual clock. The edge cache's rules are `kv-edge-model.ts` (shared with the
 * strict KV binding's `KV_MODEL=production` mode); this adds central storage and named locations.
 *
 * - **Central storage** takes every write at once.
 * - **Locations** (`model.location(name)`; an isolate in tests, several isolates may share one)
 *   each have an edge cache. A read at a location serves a key from that cache while the entry
 *   lasts; otherwise it fetches the key from central and keeps what it got, value **or miss**, for
 *   that read's `cacheTtl` (at least `KV_MIN_CACHE_TTL_S`; `KV_DEFAULT_CACHE_TTL_S` when none is
 *   given). A hit neither extends the entry nor looks at central, whatever changed there.
 * - A key never read at a location (or whose entry has lapsed) is fetched fresh from central.
 * - The single-key `get` (`text`, `json`, `arrayBuffer`, `stream`) and the bulk `get(keys[])`
 *   (`text`, `json`, at most `KV_MAX_BULK_KEYS` keys) follow these rules per key.
 *
 * Left out: propagation from central to other regions (a write is in central for every location
 * at once), the writer's own location seeing its write early, early eviction from an edge cache,
 * expiring keys, metadata, `list`, and failures.
 */
import {
  checkBulkSize,
  EdgeCache,
  readOptions,
  typedValue,
  type KvGetOptions,
  type KvValue,
} from './kv-edge-model.ts'

export {
  KV_DEFAULT_CACHE_TTL_S,
  KV_MAX_BULK_KEYS,
  KV_MIN_CACHE_TTL_S,
  type KvGetOptions,
  type KvValue,
} from './kv-edge-model.ts'

export interface KvLocationStats {
  /** `get` calls (a bulk get is one). */
  calls: number
  /** Keys those calls named. */
  keys: number
  /** Keys served from the location's edge cache. */
  edgeHits: number
  /** Keys fetched from central storage (and then kept at the location). */
  centralReads: number
}

export class ProductionKvModel {
  readonly #central = new Map<string, KvValue>()
  readonly #locations = new Map<string, KvLocation>()
  readonly now: () => number

  /** `now`: the virtual clock, in milliseconds. */
  constructor(options: { now: () => number }) {
    this.now = options.now
  }

  /** Writes a value to central storage (visible to every read that misses its edge cache). */
  put(key: string, value: KvValue): void {
    this.#central.set(key, value)
  }

  /** Deletes a key from central storage. */
  delete(key: string): void {
    this.#central.delete(key)
  }

  /** Keys in central storage. */
  keys(): IterableIterator<string> {
    return this.#central.keys()
  }

  /** Central storage's value of a key (no location involved). */
  centralValue(key: string): KvValue | null {
    return this.#central.get(key) ?? null
  }

  /** The location of that name, with its own edge cache (the same object on every call). */
  location(name: string): KvLocation {
    let location = this.#locations.get(name)
    if (!location) {
      location = new KvLocation(this, (key) => this.#central.get(key) ?? null)
      this.#locations.set(name, location)
    }
    return location
  }
}

/** One location's view of the namespace: the read half of a KV binding, through its edge cache. */
export class KvLocation {
  readonly #central: (key: string) => KvValue | null
  readonly #edge: EdgeCache
  readonly #stats = { calls: 0, keys: 0 }

  constructor(model: ProductionKvModel, central: (key: string) => KvValue | null) {
    this.#central = central
    this.#edge = new EdgeCache(model.now)
  }

  get stats(): KvLocationStats {
    return { ...this.#stats, ...this.#edge.stats }
  }

  get(key: string, options?: KvGetOptions): Promise<unknown>
  get(
    keys: string[],
    options: 'text' | { type: 'text'; cacheTtl?: number }
  ): Promise<Map<string, string | null>>
  get(keys: string[], options?: KvGetOptions): Promise<Map<string, unknown>>
  get(key: string | string[], options?: KvGetOptions): Promise<unknown> {
    try {
      const bulk = Array.isArray(key)
      const { type, cacheTtl } = readOptions(options, bulk)
      this.#stats.calls++
      if (!bulk) {
        this.#stats.keys++
        return Promise.resolve(typedValue(this.#read(key, cacheTtl), type))
      }
      checkBulkSize(key)
      this.#stats.keys += key.length
      const out = new Map<string, unknown>()
      for (const k of key) out.set(k, typedValue(this.#read(k, cacheTtl), type))
      return Promise.resolve(out)
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)))
    }
  }

  /** What this location's edge cache holds for a key now: undefined when nothing (or lapsed). */
  cached(key: string): { value: KvValue | null; until: number } | undefined {
    return this.#edge.peek(key)
  }

  #read(key: string, cacheTtl: number): KvValue | null {
    const kept = this.#edge.hit(key)
    if (kept) return kept.value
    const value = this.#central(key)
    this.#edge.keep(key, value, cacheTtl)
    return value
  }
}
