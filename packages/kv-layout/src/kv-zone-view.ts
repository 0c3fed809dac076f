/**
 * @module ZoneView over Workers KV: one bulk read finds the zone and the nodes around a name.
 */
import { decodeNode, decodeZoneMeta } from './codec.ts'
import { nodeKey, zoneKey } from './keys.ts'
import { TtlLru } from './lru.ts'
import { ancestorsBetween, isInZone, normalizeName, zoneCandidates } from './names.ts'
import type { LookupOptions, NodeData, ZoneLookup, ZoneMeta, ZoneView } from './types.ts'

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

    const possible = cached ? [...unknown, cached.name] : unknown
    const speculative = possible.flatMap((z) => nodeNamesFor(name, z).map((n) => nodeKey(z, n)))
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
    return { zone, nodes: this.#nodes(name, zone, values) }
  }

  #nodeKeys(name: string, zone: ZoneMeta): string[] {
    return nodeNamesFor(name, zone.name).map((n) => nodeKey(zone.name, n))
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
