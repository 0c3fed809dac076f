/**
 * @module What a zone view holds of a zone (`ZoneEntry`), what it remembers of one it evicted
 * (`KnownZone`), and which keys a lookup of a name in a zone reads.
 */
import { BUCKET_LADDER, bucketKey, bucketOfHash, nameHash } from './keys.ts'
import { ancestorsBetween } from './names.ts'
import type { BucketOwner } from './bucket-cache.ts'
import type { BucketVersions, NodeData, ZoneHead, ZoneMeta } from './types.ts'

/**
 * Whole-millisecond times an entry keeps are stored less this origin (the first such time an entry
 * took, in this isolate): near it they are small integers, which V8 keeps in the field itself,
 * where a clock reading would get a box of its own per entry. Exact: whole numbers this size
 * subtract and add back without rounding; any other time is stored as it is.
 */
let clockOrigin: number | undefined

/** Integers below this (in size) are small in every V8 build (31-bit with compressed pointers). */
const SMALL = 2 ** 30

const GONE = 1
const USED = 2
/** `#confirmed` holds the time itself, not its offset from `clockOrigin`. */
const TIME_AS_IS = 4
const FLAGS = GONE | USED | TIME_AS_IS
/** Bucket indexes (below the largest bucket count) sit above the flags. */
const INDEX_SHIFT = 3

/** A held head's change history: never read (only an incoming head's is, against the held one). */
const NO_CHANGES: ZoneHead['changed'] = []

/**
 * A held zone. The entry is also its held head (`head` is the entry itself): a view holding many
 * small zones keeps one object per zone for both. The head's parts are those `held-head.ts`
 * returns; its overlay key is not kept (the overlay was read when the head was taken).
 */
export class ZoneEntry implements ZoneHead, BucketOwner {
  n: number
  seq: number
  meta: ZoneMeta
  overlay: Map<string, NodeData | null>
  bv: BucketVersions | undefined
  readonly name: string
  /** Kept buckets (see BucketOwner), of the head's bucket count. */
  buckets: BucketOwner['buckets'] = null
  /** `confirmedAt`, less `clockOrigin` unless flagged `TIME_AS_IS`. */
  #confirmed = 0
  /**
   * Newest head counter the feed named for the zone (at least `head.n` once taken, except for a
   * head taken from an offer, whose versioned key may not be written yet: below it until the
   * feed names that head).
   */
  target: number
  /** The confirmation read in flight and when it started (`zone-reads-in-flight.ts`). */
  refresh: { read: Promise<ZoneEntry | null>; startedAt: number } | null = null
  /** `gone`, `used`, `TIME_AS_IS` and `inlineIndex` in one small integer (one slot, not four). */
  #bits = 0
  headBytes = 0
  /**
   * Changes with every newer head taken (unique across the view's zones): answers and fetched
   * buckets are kept only if it did not change while they were being read.
   */
  stamp: number

  constructor(name: string, head: ZoneHead, confirmedAt: number, target: number, stamp: number) {
    this.n = head.n
    this.seq = head.seq
    this.meta = head.meta
    this.overlay = head.overlay
    this.bv = head.bv
    this.name = name
    this.confirmedAt = confirmedAt
    this.target = Math.max(target, head.n)
    this.stamp = stamp
  }

  /** Start time of the KV read that last confirmed the zone (through its zone key or slots). */
  get confirmedAt(): number {
    return this.#bits & TIME_AS_IS ? this.#confirmed : this.#confirmed + clockOrigin!
  }

  set confirmedAt(at: number) {
    if (Number.isSafeInteger(at)) clockOrigin ??= at
    const offset = at - (clockOrigin ?? 0)
    if (Number.isSafeInteger(at) && Number.isSafeInteger(offset)) {
      // `| 0` makes a small integer V8 keeps unboxed; a larger offset is kept as it is.
      this.#confirmed = Math.abs(offset) < SMALL ? offset | 0 : offset
      this.#bits &= ~TIME_AS_IS
    } else {
      this.#confirmed = at
      this.#bits |= TIME_AS_IS
    }
  }

  /** Forgotten by the view (deleted, replaced or evicted). */
  get gone(): boolean {
    return (this.#bits & GONE) !== 0
  }

  set gone(gone: boolean) {
    this.#bits = gone ? this.#bits | GONE : this.#bits & ~GONE
  }

  /** Looked up since the eviction hand last passed it: it gets a second chance (CLOCK). */
  get used(): boolean {
    return (this.#bits & USED) !== 0
  }

  set used(used: boolean) {
    this.#bits = used ? this.#bits | USED : this.#bits & ~USED
  }

  /** Index of the inline bucket (see BucketOwner). */
  get inlineIndex(): number {
    return this.#bits >>> INDEX_SHIFT
  }

  set inlineIndex(index: number) {
    this.#bits = (this.#bits & FLAGS) | (index << INDEX_SHIFT)
  }

  /** The zone's held head: the entry itself. */
  get head(): ZoneHead {
    return this
  }

  get changed(): ZoneHead['changed'] {
    return NO_CHANGES
  }

  /**
   * Takes a newer head's parts (as `held-head.ts` returns them), with a new stamp. An offered
   * head leaves `target` as it is: the feed has not named it yet.
   */
  take(head: ZoneHead, stamp: number, offered = false): void {
    this.n = head.n
    this.seq = head.seq
    this.meta = head.meta
    this.overlay = head.overlay
    this.bv = head.bv
    if (!offered && head.n > this.target) this.target = head.n
    this.stamp = stamp
  }
}

// Declared apart so that no entry has a slot for it unless set (see `raw`).
export interface ZoneEntry {
  /**
   * Raw zone key value last read, present only while the zone has no head (its metadata comes
   * from it); absent or undefined otherwise.
   */
  raw?: string | undefined
}

/** The bucket count of a zone's head (0: no bucket layout). */
export function bucketCount(head: ZoneHead): number {
  return head.meta.layout?.buckets ?? 0
}

/**
 * An evicted zone as remembered: its id and newest head counter, and while that head is the one
 * it was evicted with and named every bucket at one version with no overlay, the bucket count and
 * that version (a lookup then reads the head and the name's buckets in one round trip).
 */
export interface KnownZone {
  id: string
  n: number
  buckets?: { count: number; v: number }
}

/** A versioned bucket key that is not there: the head naming it is older than its retirement. */
export class RetiredBucket extends Error {}

/** Node names a lookup of `name` in `zone` reads: the name, ancestors, wildcards. */
export function nodeNamesFor(name: string, zone: string): string[] {
  if (name === zone) return []
  const ancestors = ancestorsBetween(name, zone)
  const wildcards = [...ancestors, zone].map((a) => (a === '' ? '*' : `*.${a}`))
  return [name, ...ancestors, ...wildcards]
}

/** Versioned bucket keys of `name`'s lookup in `zone` whose buckets are all at version `v`. */
export function knownBucketKeys(
  name: string,
  zone: string,
  id: string,
  buckets: { count: number; v: number }
): string[] {
  const keys = new Set<string>()
  for (const n of nodeNamesFor(name, zone))
    keys.add(
      bucketKey(zone, buckets.count, bucketOfHash(nameHash(n), buckets.count), { id, v: buckets.v })
    )
  return [...keys]
}

/** Bucket keys of `name`'s lookup in `zone` for every bucket count of the ladder (cold cache). */
export function speculativeKeys(name: string, zone: string): string[] {
  const names = nodeNamesFor(name, zone)
  const keys = new Set<string>()
  for (const b of BUCKET_LADDER)
    for (const n of names) keys.add(bucketKey(zone, b, bucketOfHash(nameHash(n), b)))
  return [...keys]
}
