/**
 * @module How the zone view reads Workers KV: the binding's bulk get, the edge cache time asked
 * for each kind of key, and one round trip for any number of keys.
 */

/** The part of a KV namespace binding the view needs (Workers KV bulk get of text values). */
export interface KvBulkReader {
  get(
    keys: string[],
    options: { type: 'text'; cacheTtl?: number }
  ): Promise<Map<string, string | null>>
}

/**
 * Edge cache time (s) asked for zone keys and heads, the revalidation signal: KV's minimum, so a
 * change (or a miss cached before a slot was written) is seen at most this long late at an edge
 * location, on top of KV's propagation. Bucket reads use KV's default (60 s): a bucket a head says
 * changed is read again, and `bucketMaxAgeMs` bounds how long an isolate keeps one.
 */
export const SIGNAL_CACHE_TTL_S = 30

/**
 * Edge cache time (s) asked for keys written once and never rewritten: versioned heads the feed
 * names, their overlay keys, and versioned buckets. A location may keep them as long as it likes.
 */
export const IMMUTABLE_CACHE_TTL_S = 86_400

/** Keys per bulk get (Workers KV allows 100). */
const KEYS_PER_CALL = 100

/** KV calls and keys read, counted by `bulkGet`. */
export interface KvReadCounts {
  kvCalls: number
  kvKeys: number
}

/** One round trip: the distinct keys in chunks of at most KEYS_PER_CALL, read in parallel. */
export async function bulkGet(
  kv: KvBulkReader,
  keys: string[],
  cacheTtl: number | undefined,
  counts: KvReadCounts
): Promise<Map<string, string | null>> {
  const unique = [...new Set(keys)]
  const chunks: string[][] = []
  for (let i = 0; i < unique.length; i += KEYS_PER_CALL)
    chunks.push(unique.slice(i, i + KEYS_PER_CALL))
  counts.kvCalls += chunks.length
  counts.kvKeys += unique.length
  const options =
    cacheTtl === undefined ? { type: 'text' as const } : { type: 'text' as const, cacheTtl }
  const results = await Promise.all(chunks.map((c) => kv.get(c, options)))
  const out = new Map<string, string | null>()
  for (const r of results) for (const [k, v] of r) out.set(k, v)
  return out
}
