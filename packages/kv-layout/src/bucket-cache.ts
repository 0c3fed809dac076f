/**
 * @module The view's byte-bounded cache of bucket texts, across zones: each zone owns a map of its
 * kept buckets, and the cache counts their bytes (plus what the view charges for heads) against one
 * capacity, evicting buckets second-chance (CLOCK: a bucket used since the hand last passed it
 * goes to the back once).
 */
import { bucketLineIndex, findInBucket, findInIndexedBucket } from './bucket-text.ts'

/** Bytes counted per kept bucket beyond its text and line index. */
const ENTRY_OVERHEAD = 96

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

/** A zone's kept buckets, by index. */
export interface BucketOwner {
  buckets: Map<number, CachedBucket>
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
    const lines = bucketLineIndex(text)
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
    owner.buckets.set(index, bucket)
    this.#clock.add(bucket)
    this.#bytes += size
    this.#evict()
  }

  drop(owner: BucketOwner, index: number): void {
    const bucket = owner.buckets.get(index)
    if (!bucket) return
    owner.buckets.delete(index)
    this.#clock.delete(bucket)
    this.#bytes -= bucket.size
  }

  dropAll(owner: BucketOwner): void {
    for (const index of [...owner.buckets.keys()]) this.drop(owner, index)
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
      oldest.owner.buckets.delete(oldest.index)
      this.#bytes -= oldest.size
    }
  }
}
