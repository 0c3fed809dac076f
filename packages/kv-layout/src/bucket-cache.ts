/**
 * @module The view's byte-bounded cache of bucket texts, across zones: each zone owns its kept
 * buckets, and the cache counts their bytes (plus what the view charges for heads and versions
 * tables) against one capacity, evicting buckets second-chance (CLOCK: a bucket used since the
 * hand last passed it goes to the back once). A zone's only kept bucket, when it is short and read
 * under a versioned key (immutable), is kept inline: the text alone in the zone's entry, charged to the zone and
 * dropped with it, outside the clock (a platform's small zones each need one such bucket, and its
 * bookkeeping would take more room than its text).
 */
import { bucketLineIndex, findInBucket, findInIndexedBucket } from './bucket-text.ts'

/** Shortest bucket text kept with a line index. */
const INDEXED_TEXT_MIN = 512

/** Bytes counted per kept bucket beyond its text and line index: its object, clock slot and time. */
const ENTRY_OVERHEAD = 160

/** Bytes counted for a zone's map of kept buckets (once it keeps two): the map and its table. */
const OWNER_MAP_BYTES = 192

export interface CachedBucket {
  owner: BucketOwner
  index: number
  text: string
  /** Line starts for binary search; null for a text not in canonical order (searched linearly). */
  lines: Int32Array | null
  size: number
  used: boolean
  fetchedAt: number
  /** Read under a versioned key: immutable, kept whatever its age. */
  versioned: boolean
}

/**
 * A zone's kept buckets: none (null), one inline (its text, at `inlineIndex`), one cached (most
 * held zones of a platform keep one or none, and a map would take more room than the bucket), or a
 * map by index.
 */
export interface BucketOwner {
  buckets: string | CachedBucket | Map<number, CachedBucket> | null
  /** Index of the inline bucket (meaningful while `buckets` is a text). */
  inlineIndex: number
}

/**
 * Bytes charged for an inline bucket beyond its text: the string's header and alignment, rounded
 * up from what `bench/tools/held-zone-bytes.mjs` measures.
 */
export const INLINE_OVERHEAD = 32

/** Charges (or, negative, releases) bytes of an inline bucket to the zone that holds it. */
export type InlineCharge = (owner: BucketOwner, delta: number) => void

/** The owner's kept bucket at `index` held in the clock (not an inline one). */
function cachedAt(owner: BucketOwner, index: number): CachedBucket | undefined {
  const b = owner.buckets
  if (b === null || typeof b === 'string') return undefined
  if (b instanceof Map) return b.get(index)
  return b.index === index ? b : undefined
}

/** Indexes of the owner's kept buckets. */
export function keptIndexes(owner: BucketOwner): number[] {
  const b = owner.buckets
  if (b === null) return []
  if (typeof b === 'string') return [owner.inlineIndex]
  return b instanceof Map ? [...b.keys()] : [b.index]
}

/**
 * A name's encoded node in the owner's kept bucket `index` (null: not in it), or undefined when
 * that bucket is not kept or is unversioned and fetched before `staleBefore`. A cached bucket
 * found is marked used (CLOCK); one with a line index is binary searched.
 */
export function findKept(
  owner: BucketOwner,
  index: number,
  staleBefore: number,
  zone: string,
  name: string
): string | null | undefined {
  const b = owner.buckets
  if (typeof b === 'string')
    return owner.inlineIndex === index ? findInBucket(b, zone, name) : undefined
  const bucket = cachedAt(owner, index)
  if (!bucket || (!bucket.versioned && bucket.fetchedAt < staleBefore)) return undefined
  bucket.used = true
  return bucket.lines
    ? findInIndexedBucket(bucket.text, bucket.lines, zone, name)
    : findInBucket(bucket.text, zone, name)
}

export class BucketCache {
  readonly #capacity: number
  /** Cached buckets in second-chance (CLOCK) order. */
  readonly #clock = new Set<CachedBucket>()
  #bytes = 0
  #inlineCharge: InlineCharge | null = null

  constructor(capacity: number) {
    this.#capacity = capacity
  }

  /**
   * Keeps an owner's only short versioned bucket inline, charged through `charge` (which counts it
   * here too, as the owner's other bytes are); without it every bucket is cached in the clock.
   */
  inlineTo(charge: InlineCharge): void {
    this.#inlineCharge = charge
  }

  /** Bytes counted: kept buckets and charges. */
  get bytes(): number {
    return this.#bytes
  }

  get size(): number {
    return this.#clock.size
  }

  /**
   * Counts `delta` more bytes held elsewhere (heads, versions tables) against the capacity,
   * evicting buckets past it.
   */
  charge(delta: number): void {
    this.#bytes += delta
    this.#evict()
  }

  /** Keeps a bucket text for `owner` (a text over an eighth of the capacity is not kept). */
  store(owner: BucketOwner, index: number, text: string, versioned: boolean, now: number): void {
    if (text.length + ENTRY_OVERHEAD > this.#capacity / 8) return
    this.drop(owner, index)
    const short = text.length < INDEXED_TEXT_MIN
    if (short && versioned && owner.buckets === null && this.#inlineCharge) {
      owner.buckets = text
      owner.inlineIndex = index
      this.#inlineCharge(owner, text.length + INLINE_OVERHEAD)
      return
    }
    // A short text is searched line by line: its index would take more room than it saves time.
    const lines = short ? null : bucketLineIndex(text)
    const size = text.length + (lines?.byteLength ?? 0) + ENTRY_OVERHEAD
    const bucket: CachedBucket = {
      owner,
      index,
      text,
      lines,
      size,
      used: false,
      fetchedAt: now,
      versioned,
    }
    this.#add(owner, bucket)
    this.#clock.add(bucket)
    this.#bytes += size
    this.#evict()
  }

  drop(owner: BucketOwner, index: number): void {
    const b = owner.buckets
    if (typeof b === 'string') {
      if (owner.inlineIndex !== index) return
      owner.buckets = null
      this.#inlineCharge?.(owner, -(b.length + INLINE_OVERHEAD))
      return
    }
    const bucket = cachedAt(owner, index)
    if (!bucket) return
    this.#remove(owner, index)
    this.#clock.delete(bucket)
    this.#bytes -= bucket.size
  }

  dropAll(owner: BucketOwner): void {
    for (const index of keptIndexes(owner)) this.drop(owner, index)
  }

  /**
   * Adds a bucket (its index not kept) to the owner's: the first alone, a map from the second (an
   * inline one moves into the clock first).
   */
  #add(owner: BucketOwner, bucket: CachedBucket): void {
    if (typeof owner.buckets === 'string') this.#uninline(owner)
    const b = owner.buckets as CachedBucket | Map<number, CachedBucket> | null
    if (b === null) owner.buckets = bucket
    else if (b instanceof Map) b.set(bucket.index, bucket)
    else {
      owner.buckets = new Map([
        [b.index, b],
        [bucket.index, bucket],
      ])
      this.#bytes += OWNER_MAP_BYTES
    }
  }

  /** Moves the owner's inline bucket into the clock (it is about to have two). */
  #uninline(owner: BucketOwner): void {
    const text = owner.buckets as string
    const index = owner.inlineIndex
    this.drop(owner, index)
    const size = text.length + ENTRY_OVERHEAD
    const bucket: CachedBucket = {
      owner,
      index,
      text,
      lines: null,
      size,
      used: false,
      fetchedAt: 0,
      versioned: true,
    }
    owner.buckets = bucket
    this.#clock.add(bucket)
    this.#bytes += size
  }

  /** Removes the owner's cached bucket at `index` (kept). */
  #remove(owner: BucketOwner, index: number): void {
    const b = owner.buckets
    if (!(b instanceof Map)) owner.buckets = null
    else {
      b.delete(index)
      if (b.size === 0) {
        owner.buckets = null
        this.#bytes -= OWNER_MAP_BYTES
      }
    }
  }

  #evict(): void {
    while (this.#bytes > this.#capacity && this.#clock.size > 0) {
      const oldest = this.#clock.values().next().value as CachedBucket
      this.#clock.delete(oldest)
      if (oldest.used) {
        oldest.used = false
        this.#clock.add(oldest)
        continue
      }
      this.#remove(oldest.owner, oldest.index)
      this.#bytes -= oldest.size
    }
  }
}
