/**
 * @module The view's byte-bounded cache of bucket texts, across zones: each zone owns a map of its
 * kept buckets, and the cache counts their bytes (plus what the view charges for heads) against one
 * capacity, evicting buckets second-chance (CLOCK: a bucket used since the hand last passed it
 * goes to the back once).
 */
import { bucketLineIndex, findInBucket, findInIndexedBucket } from './bucket-text.ts'

/** Shortest bucket text kept with a line index. */
const INDEXED_TEXT_MIN = 512

/** Bytes counted per kept bucket beyond its text and line index: its object, clock slot and time. */
const ENTRY_OVERHEAD = 160

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
 * A zone's kept buckets: none (null), one (most held zones of a platform keep one or none, and a
 * map would take more room than the bucket), or a map by index.
 */
export interface BucketOwner {
  buckets: CachedBucket | Map<number, CachedBucket> | null
}

/** The owner's kept bucket at `index`. */
export function keptBucket(owner: BucketOwner, index: number): CachedBucket | undefined {
  const b = owner.buckets
  if (b === null) return undefined
  if (b instanceof Map) return b.get(index)
  return b.index === index ? b : undefined
}

/** Indexes of the owner's kept buckets. */
export function keptIndexes(owner: BucketOwner): number[] {
  const b = owner.buckets
  if (b === null) return []
  return b instanceof Map ? [...b.keys()] : [b.index]
}

/** A name's encoded node in a kept bucket: binary search when the bucket has a line index. */
export function findInCached(bucket: CachedBucket, zone: string, name: string): string | null {
  return bucket.lines
    ? findInIndexedBucket(bucket.text, bucket.lines, zone, name)
    : findInBucket(bucket.text, zone, name)
}

export class BucketCache {
  readonly #capacity: number
  /** Cached buckets in second-chance (CLOCK) order. */
  readonly #clock = new Set<CachedBucket>()
  #bytes = 0

  constructor(capacity: number) {
    this.#capacity = capacity
  }

  /** Bytes counted: kept buckets and charges. */
  get bytes(): number {
    return this.#bytes
  }

  get size(): number {
    return this.#clock.size
  }

  /** Counts `delta` more bytes held elsewhere (heads) against the capacity, evicting buckets past it. */
  charge(delta: number): void {
    this.#bytes += delta
    this.#evict()
  }

  /** Keeps a bucket text for `owner` (a text over an eighth of the capacity is not kept). */
  store(owner: BucketOwner, index: number, text: string, versioned: boolean, now: number): void {
    if (text.length + ENTRY_OVERHEAD > this.#capacity / 8) return
    // A short text is searched line by line: its index would take more room than it saves time.
    const lines = text.length < INDEXED_TEXT_MIN ? null : bucketLineIndex(text)
    const size = text.length + (lines?.byteLength ?? 0) + ENTRY_OVERHEAD
    this.drop(owner, index)
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
    const bucket = keptBucket(owner, index)
    if (!bucket) return
    this.#remove(owner, index)
    this.#clock.delete(bucket)
    this.#bytes -= bucket.size
  }

  dropAll(owner: BucketOwner): void {
    for (const index of keptIndexes(owner)) this.drop(owner, index)
  }

  /** Adds a bucket (its index not kept) to the owner's: the first alone, a map from the second. */
  #add(owner: BucketOwner, bucket: CachedBucket): void {
    const b = owner.buckets
    if (b === null) owner.buckets = bucket
    else if (b instanceof Map) b.set(bucket.index, bucket)
    else
      owner.buckets = new Map([
        [b.index, b],
        [bucket.index, bucket],
      ])
  }

  /** Removes the owner's bucket at `index` (kept). */
  #remove(owner: BucketOwner, index: number): void {
    const b = owner.buckets
    if (!(b instanceof Map)) owner.buckets = null
    else {
      b.delete(index)
      if (b.size === 0) owner.buckets = null
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
