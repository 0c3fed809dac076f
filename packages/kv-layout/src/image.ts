/**
 * @module A whole zone as the KV entries a full build leaves behind: the zone key, every bucket
 * of the chosen count (empty ones included) and head 1. Pure; test fixtures and tools use it so
 * that what they seed is what the builder writes: with `versioned`, layout format 4 (every bucket
 * at version 1 under the zone's id, head 1 naming them, also under its versioned key); without,
 * format 3 (unversioned bucket keys, head 1 in its slot only).
 */
import { lookupName } from '@edgedns/dns-facts'
import { EMPTY_BUCKET, encodeBucketText } from './bucket-text.ts'
import { encodeNode, encodeZoneMeta } from './codec.ts'
import { encodeHead, headKey, headSlot, headVersionKey } from './head.ts'
import { bucketCountFor, bucketKey, bucketOfHash, nameHash, zoneKey } from './keys.ts'
import { ancestorsBetween } from './names.ts'
import type { NodeData, ZoneMeta } from './types.ts'

export interface ZoneImageOptions {
  /** Bucket count (default: what a full build picks for the zone's size). */
  buckets?: number
  /** Layout format 4: versioned bucket keys and head key (default: format 3). */
  versioned?: boolean
}

/** Empty non-terminals added for every name's ancestors below the apex that hold no records. */
export function withEmptyNonTerminals(
  zone: string,
  nodes: Iterable<readonly [string, NodeData]>
): Map<string, NodeData> {
  const out = new Map<string, NodeData>()
  for (const [name, node] of nodes) out.set(lookupName(name), node)
  for (const name of [...out.keys()])
    for (const a of ancestorsBetween(name, zone)) if (!out.has(a)) out.set(a, { v: 1, sets: {} })
  return out
}

/** Key → value of a zone's KV image. `nodes` are every name but the apex (ENTs are added). */
export function zoneImage(
  meta: ZoneMeta,
  nodes: Iterable<readonly [string, NodeData]>,
  options: ZoneImageOptions = {}
): Map<string, string> {
  const zone = lookupName(meta.name)
  const all = withEmptyNonTerminals(zone, nodes)
  all.delete(zone)
  const buckets = options.buckets ?? bucketCountFor(all.size)
  const grouped = Array.from({ length: buckets }, () => [] as [string, string][])
  for (const [name, node] of all)
    grouped[bucketOfHash(nameHash(name), buckets)]!.push([name, encodeNode(node)])
  const out = new Map<string, string>()
  const version = options.versioned ? { id: meta.id, v: 1 } : undefined
  grouped.forEach((entries, i) =>
    out.set(
      bucketKey(zone, buckets, i, version),
      entries.length === 0 ? EMPTY_BUCKET : encodeBucketText(zone, entries)
    )
  )
  const encodedMeta = encodeZoneMeta({ ...meta, layout: { buckets } })
  out.set(zoneKey(zone), encodedMeta)
  const head = encodeHead({
    n: 1,
    seq: 0,
    meta: encodedMeta,
    overlay: [],
    changed: [[1, 'all']],
    ...(version ? { bv: { base: 1, changed: new Map() } } : {}),
  })
  out.set(headKey(zone, headSlot(1)), head)
  if (version) out.set(headVersionKey(zone, meta.id, 1), head)
  return out
}
