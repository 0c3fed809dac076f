/**
 * @module What a zone view holds of a zone (`ZoneEntry`), what it remembers of one it evicted
 * (`KnownZone`), and which keys a lookup of a name in a zone reads.
 */
import { BUCKET_LADDER, bucketKey, bucketOfHash, nameHash } from './keys.ts'
import { ancestorsBetween } from './names.ts'
import type { BucketOwner } from './bucket-cache.ts'
import type { ZoneHead } from './types.ts'

export interface ZoneEntry {
  name: string
  head: ZoneHead
  /** Raw zone key value last read, kept only while the zone has no head (its metadata comes from it). */
  raw: string
  /** Bucket count `buckets` belong to. */
  count: number
  /** Kept buckets (see BucketOwner). */
  buckets: BucketOwner['buckets']
  inlineIndex: number
  /** Start time of the KV read that last confirmed the zone (through its zone key or slots). */
  confirmedAt: number
  /** Newest head counter the feed named for the zone (at least `head.n` once taken). */
  target: number
  refresh: Promise<ZoneEntry | null> | null
  refreshStartedAt: number
  gone: boolean
  headBytes: number
  /** Looked up since the eviction hand last passed it: it gets a second chance (CLOCK). */
  used: boolean
  /**
   * Changes with every newer head taken (unique across the view's zones): answers and fetched
   * buckets are kept only if it did not change while they were being read.
   */
  stamp: number
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
