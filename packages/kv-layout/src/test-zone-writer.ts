/**
 * @module Test support: the zone builder's side of one zone, writing KV the way the builder does
 * (a full build's image; head n+1 before any bucket; a large overlay in a key of its own, written
 * before the head that names it; bucket rewrites; a purge).
 */
import { encodeBucketText } from './bucket-text.ts'
import { encodeNode, encodeZoneMeta } from './codec.ts'
import {
  encodeHead,
  encodeOverlay,
  HEAD_CHANGE_HISTORY,
  headKey,
  headSlot,
  OVERLAY_INLINE_MAX,
  overlayKey,
} from './head.ts'
import { withEmptyNonTerminals, zoneImage } from './image.ts'
import { bucketKey, bucketOf, zoneKey } from './keys.ts'
import type { NodeData, ZoneMeta } from './types.ts'

/** The write half of a KV namespace as a test sees it. */
export interface KvWriteTarget {
  put(key: string, value: string): void
  delete(key: string): void
  keys(): Iterable<string>
}

export const a = (ip: string, ttl = 300): NodeData => ({ v: 1, sets: { A: { ttl, rdata: [ip] } } })

export function baseMeta(name: string, id = 'a'.repeat(32)): ZoneMeta {
  return {
    v: 1,
    id,
    name,
    serial: 1,
    soa: {
      mname: `ns1.${name}`,
      rname: `hostmaster.${name}`,
      refresh: 1,
      retry: 1,
      expire: 1,
      minimum: 60,
      ttl: 3600,
    },
    ns: ['ns1.example.net'],
    proxy: { ipv4: [], ipv6: [] },
    apex: { v: 1, sets: { NS: { ttl: 86400, rdata: ['ns1.example.net.'] } } },
  }
}

export class ZoneWriter {
  meta: ZoneMeta
  nodes: Map<string, NodeData>
  n = 1
  changed: [number, number[] | 'all'][] = [[1, 'all']]

  /** Writes the zone's full-build image (every bucket, the zone key, head 1). */
  constructor(
    readonly kv: KvWriteTarget,
    readonly name: string,
    nodes: Record<string, NodeData> | Iterable<readonly [string, NodeData]>,
    public buckets = 16,
    id?: string
  ) {
    this.meta = { ...baseMeta(name, id), layout: { buckets } }
    const entries = Symbol.iterator in nodes ? nodes : Object.entries(nodes)
    this.nodes = withEmptyNonTerminals(name, entries)
    for (const [k, v] of zoneImage(this.meta, this.nodes, { buckets })) kv.put(k, v)
  }

  bucket(name: string, count = this.buckets): number {
    return bucketOf(name, count)
  }

  /** Rewrites bucket `index` of `count` from the current nodes. */
  writeBucket(index: number, count = this.buckets): void {
    const entries = [...this.nodes]
      .filter(([n]) => bucketOf(n, count) === index)
      .map(([n, node]) => [n, encodeNode(node)] as const)
    this.kv.put(bucketKey(this.name, count, index), encodeBucketText(this.name, entries))
  }

  /** Every bucket of `count` (a full build's first phase, or a pass that touched them all). */
  writeAllBuckets(count: number): void {
    const grouped = Array.from({ length: count }, () => [] as [string, string][])
    for (const [n, node] of this.nodes) grouped[bucketOf(n, count)]!.push([n, encodeNode(node)])
    grouped.forEach((entries, i) =>
      this.kv.put(bucketKey(this.name, count, i), encodeBucketText(this.name, entries))
    )
  }

  writeZoneKey(): void {
    this.kv.put(zoneKey(this.name), encodeZoneMeta(this.meta))
  }

  /**
   * Writes head n+1 into its slot; an overlay longer than `OVERLAY_INLINE_MAX` goes to a key of
   * its own first, as the builder writes it.
   */
  head(
    options: { overlay?: [string, NodeData | null][]; buckets?: number[] | 'all' } = {}
  ): number {
    const n = ++this.n
    this.changed = [
      ...this.changed,
      [n, options.buckets ?? []] as [number, number[] | 'all'],
    ].slice(-HEAD_CHANGE_HISTORY)
    const overlay = (options.overlay ?? []).map(
      ([name, node]) => [name, node === null ? null : encodeNode(node)] as const
    )
    const encoded = encodeOverlay(overlay)
    const separate = encoded.length > OVERLAY_INLINE_MAX ? overlayKey(this.name, n) : undefined
    if (separate !== undefined) this.kv.put(separate, encoded)
    this.kv.put(
      headKey(this.name, headSlot(n)),
      encodeHead({
        n,
        seq: n,
        meta: encodeZoneMeta(this.meta),
        overlay: separate === undefined ? overlay : [],
        ...(separate === undefined ? {} : { overlayKey: separate }),
        changed: this.changed,
      })
    )
    return n
  }

  /** Every key of the zone deleted (a purge). */
  deleteAll(): void {
    for (const key of [...this.kv.keys()])
      if (
        key === zoneKey(this.name) ||
        key.startsWith(`h:${this.name}:`) ||
        key.startsWith(`b:${this.name}:`) ||
        key.startsWith(`o:${this.name}:`)
      )
        this.kv.delete(key)
  }
}
