/**
 * @module Test support: the zone builder's side of one zone, writing KV the way the builder does
 * (a full build's image; head n+1 before any bucket; a large overlay in a key of its own, written
 * before the head that names it; bucket rewrites; a purge).
 *
 * With `versioned` it writes layout format 4: every head also under its own key
 * (`headVersionKey`), buckets under versioned keys (a bucket written between head n and head n+1
 * is version n+1; a full build writes every bucket at the version of the head that switches to
 * it), heads carrying their bucket versions, superseded versions deleted `retireGraceMs` later,
 * and with a `feed`, a feed entry appended after each head (a `delete` entry before a purge).
 */
import type { FeedAppender } from '@edgedns/zone-feed'
import { encodeBucketText } from './bucket-text.ts'
import { encodeNode, encodeZoneMeta } from './codec.ts'
import {
  bucketVersion,
  encodeHead,
  encodeOverlay,
  HEAD_CHANGE_HISTORY,
  headKey,
  headSlot,
  headVersionKey,
  OVERLAY_INLINE_MAX,
  overlayKey,
} from './head.ts'
import { encodeBucketVersions, versionsTableKey } from './head-versions.ts'
import { withEmptyNonTerminals, zoneImage } from './image.ts'
import { bucketKey, bucketOf, zoneKey } from './keys.ts'
import type { BucketVersions, NodeData, ZoneMeta } from './types.ts'

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

export interface ZoneWriterOptions {
  /** Layout format 4: versioned heads and buckets, bucket versions in heads. */
  versioned?: boolean
  /** Where heads are announced (format 4). */
  feed?: FeedAppender
  /** Feed entries carry the head's text, as the builder's do for small heads. */
  inlineHeads?: boolean
  /** Superseded bucket versions are deleted this long after they were superseded; default 10 min. */
  retireGraceMs?: number
  /** The clock retirement follows (format 4). */
  now?: () => number
  /** Counter of the first head (format 4); default 1. */
  firstHead?: number
  /** Most bucket versions a head lists; beyond, a versions table as the builder writes it. */
  versionsMax?: number
}

export class ZoneWriter {
  readonly kv: KvWriteTarget
  readonly name: string
  buckets: number
  meta: ZoneMeta
  nodes: Map<string, NodeData>
  n = 1
  changed: [number, number[] | 'all'][] = [[1, 'all']]
  /** Bucket versions of the last head (format 4). */
  bv: BucketVersions | undefined
  readonly #versioned: boolean
  readonly #feed: FeedAppender | undefined
  readonly #inlineHeads: boolean
  readonly #retireGraceMs: number
  readonly #now: () => number
  readonly #versionsMax: number
  /** The versions table the last head named. */
  #table: { key: string; versions: BucketVersions } | undefined
  /** Bucket versions written since the last head: the next head names them. */
  #pending: { base?: number; changed: Map<number, number> } = { changed: new Map() }
  /** Superseded bucket keys, with the time they were superseded. */
  readonly #retired: { key: string; at: number }[] = []

  /** Writes the zone's full-build image (every bucket, the zone key, head 1). */
  constructor(
    kv: KvWriteTarget,
    name: string,
    nodes: Record<string, NodeData> | Iterable<readonly [string, NodeData]>,
    buckets = 16,
    id?: string,
    options: ZoneWriterOptions = {}
  ) {
    this.kv = kv
    this.name = name
    this.buckets = buckets
    this.meta = { ...baseMeta(name, id), layout: { buckets } }
    const entries = Symbol.iterator in nodes ? nodes : Object.entries(nodes)
    this.nodes = withEmptyNonTerminals(name, entries)
    this.#versioned = options.versioned ?? false
    this.#feed = options.feed
    this.#inlineHeads = options.inlineHeads ?? false
    this.#retireGraceMs = options.retireGraceMs ?? 600_000
    this.#now = options.now ?? Date.now
    this.#versionsMax = options.versionsMax ?? Number.POSITIVE_INFINITY
    if (!this.#versioned) {
      for (const [k, v] of zoneImage(this.meta, this.nodes, { buckets })) kv.put(k, v)
      return
    }
    this.n = (options.firstHead ?? 1) - 1
    this.changed = []
    this.writeAllBuckets(buckets)
    this.writeZoneKey()
    this.head({ buckets: 'all' })
  }

  /** The bucket version a head written now would name for bucket `index`. */
  #currentVersion(index: number): number | undefined {
    const p = this.#pending.changed.get(index) ?? this.#pending.base
    return p ?? (this.bv && bucketVersion(this.bv, index))
  }

  #retire(key: string): void {
    this.#retired.push({ key, at: this.#now() })
  }

  /** Deletes the superseded bucket versions whose grace has passed. */
  retireDue(): void {
    const now = this.#now()
    while (this.#retired.length > 0 && this.#retired[0]!.at + this.#retireGraceMs <= now)
      this.kv.delete(this.#retired.shift()!.key)
  }

  bucket(name: string, count = this.buckets): number {
    return bucketOf(name, count)
  }

  /** Rewrites bucket `index` of `count` from the current nodes. */
  writeBucket(index: number, count = this.buckets): void {
    const entries = [...this.nodes]
      .filter(([n]) => bucketOf(n, count) === index)
      .map(([n, node]) => [n, encodeNode(node)] as const)
    const text = encodeBucketText(this.name, entries)
    if (!this.#versioned) return this.kv.put(bucketKey(this.name, count, index), text)
    const v = this.n + 1
    const old = this.#currentVersion(index)
    this.kv.put(bucketKey(this.name, count, index, { id: this.meta.id, v }), text)
    if (old !== undefined && old !== v)
      this.#retire(bucketKey(this.name, count, index, { id: this.meta.id, v: old }))
    this.#pending.changed.set(index, v)
  }

  /** Every bucket of `count` (a full build's first phase, or a pass that touched them all). */
  writeAllBuckets(count: number): void {
    const grouped = Array.from({ length: count }, () => [] as [string, string][])
    for (const [n, node] of this.nodes) grouped[bucketOf(n, count)]!.push([n, encodeNode(node)])
    if (!this.#versioned) {
      grouped.forEach((entries, i) =>
        this.kv.put(bucketKey(this.name, count, i), encodeBucketText(this.name, entries))
      )
      return
    }
    const v = this.n + 1
    grouped.forEach((entries, i) => {
      const old = this.#currentVersion(i)
      this.kv.put(
        bucketKey(this.name, count, i, { id: this.meta.id, v }),
        encodeBucketText(this.name, entries)
      )
      if (old !== undefined && old !== v)
        this.#retire(bucketKey(this.name, count, i, { id: this.meta.id, v: old }))
    })
    this.#pending = { base: v, changed: new Map() }
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
    const separate =
      encoded.length > OVERLAY_INLINE_MAX ? overlayKey(this.name, this.meta.id, n) : undefined
    if (separate !== undefined) this.kv.put(separate, encoded)
    if (this.#versioned) {
      const base = this.#pending.base ?? this.bv?.base ?? n
      const changed = new Map(this.#pending.base === undefined ? this.bv?.changed : undefined)
      for (const [i, v] of this.#pending.changed) changed.set(i, v)
      this.bv = { base, changed }
      this.#pending = { changed: new Map() }
    }
    const text = encodeHead({
      n,
      seq: n,
      meta: encodeZoneMeta(this.meta),
      overlay: separate === undefined ? overlay : [],
      ...(separate === undefined ? {} : { overlayKey: separate }),
      changed: this.changed,
      ...(this.bv ? this.#headVersions(n, this.bv) : {}),
    })
    // As the builder: the versioned key, the feed entry naming it, then the slot.
    if (this.#versioned) this.kv.put(headVersionKey(this.name, this.meta.id, n), text)
    const inline = this.#inlineHeads ? { head: text } : {}
    void this.#feed?.append([{ zone: this.name, id: this.meta.id, n, op: 'head', ...inline }])
    this.kv.put(headKey(this.name, headSlot(n)), text)
    if (this.#versioned) this.retireDue()
    return n
  }

  /** What head n lists of `bv`: all of it, or a versions table and the versions changed since. */
  #headVersions(n: number, bv: BucketVersions): { bv: BucketVersions; versionsKey?: string } {
    if (bv.changed.size <= this.#versionsMax) return { bv }
    const table = this.#table?.versions.base === bv.base ? this.#table : undefined
    const since = new Map([...bv.changed].filter(([i, v]) => table?.versions.changed.get(i) !== v))
    if (table && since.size <= this.#versionsMax)
      return { bv: { base: bv.base, changed: since }, versionsKey: table.key }
    const key = versionsTableKey(this.name, this.meta.id, n)
    this.kv.put(key, encodeBucketVersions(bv))
    this.#table = { key, versions: { base: bv.base, changed: new Map(bv.changed) } }
    return { bv: { base: bv.base, changed: new Map() }, versionsKey: key }
  }

  /** Every key of the zone deleted (a purge), after a `delete` entry when there is a feed. */
  deleteAll(): void {
    void this.#feed?.append([{ zone: this.name, id: this.meta.id, n: this.n, op: 'delete' }])
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
