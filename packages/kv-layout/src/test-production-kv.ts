/**
 * @module Test support (never part of a worker bundle): a model of production Workers KV's
 * consistency, on a virtual clock.
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

/** Smallest `cacheTtl` (s) Workers KV accepts. */
export const KV_MIN_CACHE_TTL_S = 30
/** Edge cache time (s) of a read that names no `cacheTtl`. */
export const KV_DEFAULT_CACHE_TTL_S = 60
/** Most keys one bulk `get` may name. */
export const KV_MAX_BULK_KEYS = 100

export type KvValueType = 'text' | 'json' | 'arrayBuffer' | 'stream'
export type KvGetOptions = KvValueType | { type?: KvValueType; cacheTtl?: number }

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

/** A stored value: text, or bytes (as `put` of an ArrayBuffer view stores them). */
export type KvValue = string | Uint8Array

interface EdgeEntry {
  /** What central held when it was fetched: a value, or null for a miss. */
  value: KvValue | null
  /** Virtual time (ms) the entry lapses. */
  until: number
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

const parseOptions = (options: KvGetOptions | undefined) => {
  const o = typeof options === 'string' ? { type: options } : (options ?? {})
  const cacheTtl = o.cacheTtl ?? KV_DEFAULT_CACHE_TTL_S
  if (!Number.isFinite(cacheTtl) || cacheTtl < KV_MIN_CACHE_TTL_S)
    throw new TypeError(
      `KV GET failed: invalid cacheTtl ${String(o.cacheTtl)}: at least ${KV_MIN_CACHE_TTL_S}`
    )
  return { type: o.type ?? 'text', cacheTtl }
}

function typed(stored: KvValue | null, type: KvValueType): unknown {
  if (stored === null) return null
  const value = typeof stored === 'string' ? stored : new TextDecoder().decode(stored)
  switch (type) {
    case 'text':
      return value
    case 'json':
      return JSON.parse(value) as unknown
    case 'arrayBuffer':
      return typeof stored === 'string'
        ? new TextEncoder().encode(stored).buffer
        : stored.slice().buffer
    case 'stream':
      return new Response(value).body
  }
}

/** One location's view of the namespace: the read half of a KV binding, through its edge cache. */
export class KvLocation {
  readonly #model: ProductionKvModel
  readonly #central: (key: string) => KvValue | null
  readonly #edge = new Map<string, EdgeEntry>()
  readonly stats: KvLocationStats = { calls: 0, keys: 0, edgeHits: 0, centralReads: 0 }

  constructor(model: ProductionKvModel, central: (key: string) => KvValue | null) {
    this.#model = model
    this.#central = central
  }

  get(key: string, options?: KvGetOptions): Promise<unknown>
  get(
    keys: string[],
    options: 'text' | { type: 'text'; cacheTtl?: number }
  ): Promise<Map<string, string | null>>
  get(keys: string[], options?: KvGetOptions): Promise<Map<string, unknown>>
  get(key: string | string[], options?: KvGetOptions): Promise<unknown> {
    try {
      const { type, cacheTtl } = parseOptions(options)
      this.stats.calls++
      if (!Array.isArray(key)) {
        this.stats.keys++
        return Promise.resolve(typed(this.#read(key, cacheTtl), type))
      }
      if (type !== 'text' && type !== 'json')
        throw new TypeError(`KV GET failed: a bulk get reads text or json, not ${type}`)
      if (key.length > KV_MAX_BULK_KEYS)
        throw new TypeError(`KV GET failed: ${key.length} keys > ${KV_MAX_BULK_KEYS} in one call`)
      this.stats.keys += key.length
      const out = new Map<string, unknown>()
      for (const k of key) out.set(k, typed(this.#read(k, cacheTtl), type))
      return Promise.resolve(out)
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)))
    }
  }

  /** What this location's edge cache holds for a key now: undefined when nothing (or lapsed). */
  cached(key: string): { value: KvValue | null; until: number } | undefined {
    const entry = this.#edge.get(key)
    return entry && this.#model.now() < entry.until ? { ...entry } : undefined
  }

  #read(key: string, cacheTtl: number): KvValue | null {
    const now = this.#model.now()
    const entry = this.#edge.get(key)
    if (entry && now < entry.until) {
      this.stats.edgeHits++
      return entry.value
    }
    this.stats.centralReads++
    const value = this.#central(key)
    this.#edge.set(key, { value, until: now + cacheTtl * 1000 })
    return value
  }
}
