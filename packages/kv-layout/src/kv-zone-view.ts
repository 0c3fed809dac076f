/**
 * @module ZoneView over Workers KV: one bulk read finds the zone and the nodes around a name.
 */
import { bucketNode, decodeBucket, decodeNode, decodeZoneMeta } from './codec.ts'
import { BUCKET_LADDER, bucketKey, bucketOf, nodeKey, zoneKey } from './keys.ts'
import { TtlLru } from './lru.ts'
import { ancestorsBetween, isInZone, normalizeName, zoneCandidates } from './names.ts'
import type { BucketData, LookupOptions, NodeData, ZoneLookup, ZoneMeta, ZoneView } from './types.ts'

/** The part of a KV namespace binding this view needs (Workers KV bulk get). */
export interface KvBulkReader {
  get(keys: string[], type: 'json'): Promise<Map<string, unknown | null>>
}

export interface KvZoneViewOptions {
  /** How long zone metadata (found or missing) stays cached in the isolate; default 5000 ms. */
  cacheTtlMs?: number
  /** Most zone names kept in the cache; default 1000. */
  cacheSize?: number
  /** Keys per KV bulk call (Workers KV allows 100). */
  maxKeysPerCall?: number
  /**
   * Above this many keys an uncached lookup first reads zone keys, then node keys (two round
   * trips) instead of speculating node keys for every candidate zone; default 100.
   */
  speculativeKeyBudget?: number
  now?: () => number
}

/** Node names a lookup of `name` in `zone` reads: the name, ancestors, wildcards. */
export function nodeNamesFor(name: string, zone: string): string[] {
  if (name === zone) return []
  const ancestors = ancestorsBetween(name, zone)
  const wildcards = [...ancestors, zone].map((a) => (a === '' ? '*' : `*.${a}`))
  return [name, ...ancestors, ...wildcards]
}

/** Bucket keys of `name`'s lookup in `zone` for every bucket count of the ladder (cold cache). */
export function speculativeKeys(name: string, zone: string): string[] {
  const names = nodeNamesFor(name, zone)
  const keys = new Set<string>()
  for (const b of BUCKET_LADDER) for (const n of names) keys.add(bucketKey(zone, b, bucketOf(n, b)))
  return [...keys]
}

export class KvZoneView implements ZoneView {
  readonly #kv: KvBulkReader
  readonly #zones: TtlLru<ZoneMeta | null>
  readonly #maxKeysPerCall: number
  readonly #budget: number

  constructor(kv: KvBulkReader, options: KvZoneViewOptions = {}) {
    this.#kv = kv
    this.#zones = new TtlLru(options.cacheSize ?? 1000, options.cacheTtlMs ?? 5000, options.now)
    this.#maxKeysPerCall = options.maxKeysPerCall ?? 100
    this.#budget = options.speculativeKeyBudget ?? 100
  }

  async lookup(qname: string, options: LookupOptions = {}): Promise<ZoneLookup | null> {
    const name = normalizeName(qname)
    const within = options.within === undefined ? undefined : normalizeName(options.within)
    let candidates = zoneCandidates(name)
    if (within !== undefined) candidates = candidates.filter((c) => isInZone(within, c))

    const unknown: string[] = []
    let cached: ZoneMeta | null = null
    for (const c of candidates) {
      const hit = this.#zones.get(c)
      if (hit === undefined) unknown.push(c)
      else if (hit.value) {
        cached = hit.value
        break
      }
    }
    if (unknown.length === 0 && !cached) return null

    // Layout v2: an uncached zone's bucket count is unknown, so speculate over the ladder (absent
    // bucket keys cost nothing but a key in the bulk call); a cached zone reads its own layout.
    const speculative = unknown.flatMap((z) => speculativeKeys(name, z))
    if (cached) speculative.push(...this.#nodeKeys(name, cached))
    const zoneKeys = unknown.map(zoneKey)

    if (zoneKeys.length + speculative.length > this.#budget) {
      // Speculate only for the cached zone; a longer zone found now costs a second round trip.
      const cachedKeys = cached ? this.#nodeKeys(name, cached) : []
      const values = await this.#bulk([...zoneKeys, ...cachedKeys])
      const found = this.#readZones(unknown, values)
      if (!found && !cached) return null
      if (!found && cached) return { zone: cached, nodes: this.#nodes(name, cached, values) }
      const zone = found as ZoneMeta
      return { zone, nodes: this.#nodes(name, zone, await this.#bulk(this.#nodeKeys(name, zone))) }
    }

    const values = await this.#bulk([...zoneKeys, ...speculative])
    const zone = this.#readZones(unknown, values) ?? cached
    if (!zone) return null
    if (zone !== cached && !zone.layout) {
      // A layout-v1 zone found on a cold cache (migration only): its node keys were not speculated.
      return { zone, nodes: this.#nodes(name, zone, await this.#bulk(this.#nodeKeys(name, zone))) }
    }
    return { zone, nodes: this.#nodes(name, zone, values) }
  }

  /** The keys holding `name`, its ancestors and wildcards in a zone whose layout is known. */
  #nodeKeys(name: string, zone: ZoneMeta): string[] {
    const names = nodeNamesFor(name, zone.name)
    const b = zone.layout?.buckets
    if (b === undefined) return names.map((n) => nodeKey(zone.name, n))
    return [...new Set(names.map((n) => bucketKey(zone.name, b, bucketOf(n, b))))]
  }

  /** Caches every zone key read; returns the longest zone found. */
  #readZones(unknown: string[], values: Map<string, unknown>): ZoneMeta | null {
    let longest: ZoneMeta | null = null
    for (const c of unknown) {
      const raw = values.get(zoneKey(c))
      const meta = raw === null || raw === undefined ? null : decodeZoneMeta(raw)
      this.#zones.set(c, meta)
      if (meta && !longest) longest = meta
    }
    return longest
  }

  #nodes(name: string, zone: ZoneMeta, values: Map<string, unknown>): Map<string, NodeData> {
    const nodes = new Map<string, NodeData>()
    const b = zone.layout?.buckets
    if (b !== undefined) {
      const decoded = new Map<string, BucketData | null>()
      for (const n of nodeNamesFor(name, zone.name)) {
        const key = bucketKey(zone.name, b, bucketOf(n, b))
        let bucket = decoded.get(key)
        if (bucket === undefined) {
          const raw = values.get(key)
          bucket = raw === null || raw === undefined ? null : decodeBucket(raw)
          decoded.set(key, bucket)
        }
        const node = bucket ? bucketNode(bucket, n) : null
        if (node) nodes.set(n, node)
      }
      return nodes
    }
    for (const n of nodeNamesFor(name, zone.name)) {
      const raw = values.get(nodeKey(zone.name, n))
      if (raw !== null && raw !== undefined) nodes.set(n, decodeNode(raw))
    }
    return nodes
  }

  /** One round trip: chunks of at most `maxKeysPerCall` keys read in parallel. */
  async #bulk(keys: string[]): Promise<Map<string, unknown>> {
    const unique = [...new Set(keys)]
    const chunks: string[][] = []
    for (let i = 0; i < unique.length; i += this.#maxKeysPerCall) {
      chunks.push(unique.slice(i, i + this.#maxKeysPerCall))
    }
    const results = await Promise.all(chunks.map((c) => this.#kv.get(c, 'json')))
    const out = new Map<string, unknown>()
    for (const r of results) for (const [k, v] of r) out.set(k, v)
    return out
  }

  /** Drops cached zone metadata (tests, or after a known change). */
  clearCache(): void {
    this.#zones.clear()
  }
}
