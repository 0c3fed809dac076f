/**
 * @module The edge cache of one production Workers KV location, as a model: the rules a read at
 * a location follows, with the central store left to the caller. Used by the virtual-clock model
 * of the tests (`test-production-kv.ts`) and by the strict KV binding's `KV_MODEL=production`
 * mode (the workers under tests and benchmarks), so both apply the same rules:
 *
 * - A read serves a key from the location's cache while its entry lasts; a hit neither extends
 *   the entry nor looks at central storage, whatever changed there.
 * - Otherwise the key is fetched from central storage and what came back, value **or miss**, is
 *   kept for that read's `cacheTtl` (at least `KV_MIN_CACHE_TTL_S`; `KV_DEFAULT_CACHE_TTL_S` when
 *   none is given). A key never read at the location is therefore fetched fresh.
 * - Writes go to central storage at once and leave every location's cache as it was.
 *
 * A value is kept as central storage returned it, text or bytes (`KvValue`); a read of another
 * type converts it.
 */

/** Smallest `cacheTtl` (s) Workers KV accepts. */
export const KV_MIN_CACHE_TTL_S = 30
/** Edge cache time (s) of a read that names no `cacheTtl`. */
export const KV_DEFAULT_CACHE_TTL_S = 60
/** Most keys one bulk `get` may name. */
export const KV_MAX_BULK_KEYS = 100

export type KvValueType = 'text' | 'json' | 'arrayBuffer' | 'stream'
/** A stored value: text, or bytes (as `put` of an ArrayBuffer view stores them). */
export type KvValue = string | Uint8Array
export type KvGetOptions = KvValueType | { type?: KvValueType; cacheTtl?: number }

/**
 * The type and edge cache time (s) of a read's options, refused as Workers KV refuses them: a
 * `cacheTtl` below the minimum, or a bulk read of a type other than text or JSON.
 */
export function readOptions(
  options: KvGetOptions | undefined | null,
  bulk: boolean
): { type: KvValueType; cacheTtl: number } {
  const o = typeof options === 'string' ? { type: options } : (options ?? {})
  const cacheTtl = o.cacheTtl ?? KV_DEFAULT_CACHE_TTL_S
  if (!Number.isFinite(cacheTtl) || cacheTtl < KV_MIN_CACHE_TTL_S)
    throw new TypeError(
      `KV GET failed: invalid cacheTtl ${String(o.cacheTtl)}: at least ${KV_MIN_CACHE_TTL_S}`
    )
  const type = o.type ?? 'text'
  if (bulk && type !== 'text' && type !== 'json')
    throw new TypeError(`KV GET failed: a bulk get reads text or json, not ${type}`)
  return { type, cacheTtl }
}

/** Refuses a bulk read of more keys than Workers KV takes in one call. */
export function checkBulkSize(keys: readonly string[]): void {
  if (keys.length > KV_MAX_BULK_KEYS)
    throw new TypeError(`KV GET failed: ${keys.length} keys > ${KV_MAX_BULK_KEYS} in one call`)
}

/** Whether a read of this type gets bytes (so that the kept value should be bytes too). */
export const readsBytes = (type: KvValueType): boolean =>
  type === 'arrayBuffer' || type === 'stream'

/** A kept value (or null for a miss) as the type a read asked for. */
export function typedValue(stored: KvValue | null, type: KvValueType): unknown {
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
      return new Response(typeof stored === 'string' ? stored : stored.slice()).body
  }
}

export interface EdgeCacheStats {
  /** Keys served from the location's cache. */
  edgeHits: number
  /** Keys fetched from central storage (and then kept at the location). */
  centralReads: number
}

interface EdgeEntry {
  /** What central held when it was fetched: a value, or null for a miss. */
  value: KvValue | null
  /** Time (ms, on the cache's clock) the entry lapses. */
  until: number
}

/** Entries kept before lapsed ones are swept (the sweep then runs when the count doubles). */
const SWEEP_FLOOR = 4096

/** One location's edge cache. `now`: its clock in milliseconds. */
export class EdgeCache {
  readonly #edge = new Map<string, EdgeEntry>()
  readonly #now: () => number
  #sweepAt = SWEEP_FLOOR
  readonly stats: EdgeCacheStats = { edgeHits: 0, centralReads: 0 }

  constructor(now: () => number) {
    this.#now = now
  }

  /** The kept entry of a key when it still lasts (counted as a hit), else undefined. */
  hit(key: string): { value: KvValue | null } | undefined {
    const entry = this.#edge.get(key)
    if (!entry || this.#now() >= entry.until) return undefined
    this.stats.edgeHits++
    return { value: entry.value }
  }

  /** Keeps what central storage returned for a key (a value or null) for `cacheTtl` seconds. */
  keep(key: string, value: KvValue | null, cacheTtl: number): void {
    this.stats.centralReads++
    const now = this.#now()
    this.#edge.set(key, { value, until: now + cacheTtl * 1000 })
    if (this.#edge.size >= this.#sweepAt) {
      for (const [k, e] of this.#edge) if (now >= e.until) this.#edge.delete(k)
      this.#sweepAt = Math.max(SWEEP_FLOOR, 2 * this.#edge.size)
    }
  }

  /** What the cache holds for a key now: undefined when nothing (or lapsed). Not counted. */
  peek(key: string): { value: KvValue | null; until: number } | undefined {
    const entry = this.#edge.get(key)
    return entry && this.#now() < entry.until ? { ...entry } : undefined
  }
}
