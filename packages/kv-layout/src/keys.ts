/**
 * @module KV key builders: `z:<zone>` for zone metadata, `b:<zone>:<B>:<i>:<v>:<id>` for version v of
 * bucket i of B, `ix:<v>` for a compiled zone index, and the name hash that picks the bucket.
 * Head keys (`h:<zone>:<slot>` and `h:<zone>:v:<id>:<n>`) are in head.ts.
 *
 * Bucket keys are versioned: a bucket is never rewritten under a key a reader may have read (an
 * edge location keeps what it read, a miss included, for the read's cache time), so a reader that
 * learns a newer version from a head reads a key no location has cached.
 */
import { lookupName } from '@edgedns/dns-facts'

export function zoneKey(zone: string): string {
  return `z:${lookupName(zone)}`
}

/** Which written version of a bucket a key names: the zone's id and the bucket's version. */
export interface BucketKeyVersion {
  /** The zone's id: a zone created again under the same name never meets an earlier one's keys. */
  id: string
  /** The counter of the first head that names this content (see `bucketVersion`). */
  v: number
}

/**
 * Bucket `index` of a zone laid out in `buckets` buckets, at `version`; without a version, the
 * unversioned key of layout format 3 (heads without bucket versions).
 */
export function bucketKey(
  zone: string,
  buckets: number,
  index: number,
  version?: BucketKeyVersion
): string {
  const key = `b:${lookupName(zone)}:${buckets}:${index}`
  return version === undefined ? key : `${key}:${version.v}:${version.id}`
}

/** A compiled zone index (`@edgedns/zone-feed`), written once under its version. */
export function indexKey(version: number): string {
  return `ix:${version}`
}

/** Prefix shared by every bucket key of a zone, or of one of its bucket counts (listing, purges). */
export function bucketPrefix(zone: string, buckets?: number): string {
  return `b:${lookupName(zone)}:${buckets === undefined ? '' : `${buckets}:`}`
}

/** 32-bit FNV-1a of a normalised name (UTF-16 code units; names are ASCII presentation form). */
export function nameHash(name: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  // final avalanche so the top bits (which pick the bucket) depend on every character
  return avalanche32(h)
}

/** MurmurHash3's final mix: every input bit moves about half of the 32 output bits. */
export function avalanche32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Bucket of a name hash: its top log2(buckets) bits, so bucket i is the hash range [i·2^32/B, (i+1)·2^32/B). */
export function bucketOfHash(hash: number, buckets: number): number {
  return buckets <= 1 ? 0 : Math.floor(hash / (0x100000000 / buckets))
}

export function bucketOf(name: string, buckets: number): number {
  return bucketOfHash(nameHash(lookupName(name)), buckets)
}

/**
 * Bucket counts a zone may use. The count grows with the zone (a full build picks it and switches
 * to it through the meta key); a reader without the zone's meta speculates over this ladder.
 */
export const BUCKET_LADDER = [16, 256, 4096] as const

/** Target names per bucket when picking a count. */
export const NAMES_PER_BUCKET = 512

/** The smallest ladder count keeping at most NAMES_PER_BUCKET names per bucket (the largest otherwise). */
export function bucketCountFor(names: number, perBucket: number = NAMES_PER_BUCKET): number {
  for (const b of BUCKET_LADDER) if (names <= b * perBucket) return b
  return BUCKET_LADDER[BUCKET_LADDER.length - 1] as number
}
