/**
 * @module The nodes a lookup of a name needs from a held zone: from the head's overlay, the kept
 * buckets, or one bulk get of the missing buckets (or values a cold read already fetched).
 * A versioned bucket that is missing was retired (`RetiredBucket`: the caller confirms the zone
 * again); an unversioned one of the live count is read from the previous count, never taken as
 * "no such name".
 */
import { findKept, type BucketCache } from './bucket-cache.ts'
import { findInBucket } from './bucket-text.ts'
import { decodeNode, KvLayoutError } from './codec.ts'
import { bucketVersion } from './head.ts'
import { bucketKey, bucketOfHash, nameHash } from './keys.ts'
import { IMMUTABLE_CACHE_TTL_S } from './kv-reads.ts'
import { bucketCount, nodeNamesFor, RetiredBucket, type ZoneEntry } from './zone-entry.ts'
import type { NodeData } from './types.ts'

/** The view's side: its reads, its bucket cache and clock, and the counters it keeps. */
export interface NodesIo {
  read(keys: string[], cacheTtl?: number): Promise<Map<string, string | null>>
  buckets: BucketCache
  now(): number
  /** An unversioned bucket older than this is read again. */
  bucketMaxAgeMs: number
  stats: { bucketHits: number; bucketMisses: number }
}

/**
 * Whichever of `name`, its ancestors and the wildcards above it exist in the zone held as
 * `entry`. `speculated`: values a cold read fetched (used when they hold every key needed).
 */
export async function readNodes(
  io: NodesIo,
  name: string,
  entry: ZoneEntry,
  speculated: Map<string, string | null> | null
): Promise<Map<string, NodeData>> {
  const nodes = new Map<string, NodeData>()
  const zone = entry.name
  const names = nodeNamesFor(name, zone)
  if (names.length === 0) return nodes
  const count = bucketCount(entry.head)
  if (count === 0) throw new KvLayoutError(`zone ${zone}: no bucket layout`)
  const overlay = entry.head.overlay
  let pending: { name: string; index: number }[] | null = null
  const staleBefore = io.now() - io.bucketMaxAgeMs
  for (const n of names) {
    if (overlay.has(n)) {
      const node = overlay.get(n)
      if (node) nodes.set(n, node)
      continue
    }
    const index = bucketOfHash(nameHash(n), count)
    const encoded = findKept(entry, index, staleBefore, zone, n)
    if (encoded !== undefined) {
      io.stats.bucketHits++
      if (encoded !== null) nodes.set(n, decodeNode(encoded))
      continue
    }
    ;(pending ??= []).push({ name: n, index })
  }
  if (!pending) return nodes

  const stamp = entry.stamp
  const texts = new Map<number, string>()
  const wanted = [...new Set(pending.map((p) => p.index))]
  const bv = entry.head.bv
  const id = entry.head.meta.id
  const keys = wanted.map((i) => bucketKey(zone, count, i, bv && { id, v: bucketVersion(bv, i) }))
  const values =
    speculated && keys.every((k) => speculated.has(k))
      ? speculated
      : await io.read(keys, bv ? IMMUTABLE_CACHE_TTL_S : undefined)
  io.stats.bucketMisses += wanted.length
  const missing: { name: string; index: number }[] = []
  for (let k = 0; k < wanted.length; k++) {
    const text = values.get(keys[k]!)
    if (text === null || text === undefined) continue
    texts.set(wanted[k]!, text)
    if (entry.stamp === stamp && !entry.gone)
      io.buckets.store(entry, wanted[k]!, text, bv !== undefined, io.now())
  }
  for (const p of pending) {
    const text = texts.get(p.index)
    if (text === undefined) {
      missing.push(p)
      continue
    }
    const encoded = findInBucket(text, zone, p.name)
    if (encoded !== null) nodes.set(p.name, decodeNode(encoded))
  }
  if (missing.length > 0) {
    // A versioned key is written before any head names it and never read before: missing, it
    // was retired (this head is old), not "not visible yet".
    if (bv)
      throw new RetiredBucket(`bucket ${missing[0]!.index} of ${count} missing at its version`)
    await fromPrevious(io, entry, missing, nodes)
  }
  return nodes
}

/**
 * A bucket of the live count that KV does not return (not yet visible here): read the names
 * from the previous count, which stays readable until retired; never answer "no such name".
 */
async function fromPrevious(
  io: NodesIo,
  entry: ZoneEntry,
  missing: { name: string; index: number }[],
  nodes: Map<string, NodeData>
): Promise<void> {
  const zone = entry.name
  const prev = entry.head.meta.layout?.prev
  if (prev === undefined)
    throw new KvLayoutError(
      `zone ${zone}: bucket ${missing[0]!.index} of ${bucketCount(entry.head)} missing`
    )
  const keys = missing.map((m) => bucketKey(zone, prev, bucketOfHash(nameHash(m.name), prev)))
  const values = await io.read(keys)
  missing.forEach((m, k) => {
    const text = values.get(keys[k]!)
    if (text === null || text === undefined)
      throw new KvLayoutError(`zone ${zone}: bucket of ${m.name} missing in both counts`)
    const encoded = findInBucket(text, zone, m.name)
    if (encoded !== null) nodes.set(m.name, decodeNode(encoded))
  })
}
