/**
 * @module What the convergence check reads KV by: a bucket key's index and version, the versions
 * the zone's newest head names, and when a zone meta value equals the expected one.
 */
import {
  decodeBucketVersions,
  decodeHead,
  decodeZoneMeta,
  encodeZoneMeta,
  headCounter,
  headKeys,
  isHeadOf,
  withVersionsTable,
  type BucketVersions,
} from '@edgedns/kv-layout'

/** Version of an unversioned bucket key (layout format 3): below every version. */
export const UNVERSIONED = -1

/** Bucket index and version of a key of the live count (null: not one). */
export function parseBucketKey(
  key: string,
  zone: string,
  buckets: number,
  zoneId: string
): { i: number; v: number } | null {
  const prefix = `b:${zone}:${buckets}:`
  if (!key.startsWith(prefix)) return null
  // `<i>` (unversioned) or `<i>:<v>:<zone id>`; another zone's versions (same name) are stale.
  const m = /^(\d+)(?::(\d+):(.+))?$/.exec(key.slice(prefix.length))
  if (!m || Number(m[1]) >= buckets) return null
  if (m[2] !== undefined && m[3] !== zoneId) return null
  return { i: Number(m[1]), v: m[2] === undefined ? UNVERSIONED : Number(m[2]) }
}

/** Bucket versions the zone's newest head names (null: a head without versions, or none). */
export async function namedVersions(
  kv: KVNamespace,
  zone: string,
  zoneId: string
): Promise<BucketVersions | null> {
  const values = await kv.get(headKeys(zone), 'text')
  let best: string | null = null
  for (const text of values.values())
    if (
      text !== null &&
      isHeadOf(text, zoneId) &&
      (best === null || headCounter(text) > headCounter(best))
    )
      best = text
  if (best === null) return null
  try {
    const head = decodeHead(best)
    if (head.versionsKey === undefined) return head.bv ?? null
    const table = await kv.get(head.versionsKey, 'text')
    return table === null ? null : (withVersionsTable(head, decodeBucketVersions(table)).bv ?? null)
  } catch {
    return null
  }
}

/** Whether KV's value of `key` is the expected one (a zone meta may differ in its serial). */
export function sameValue(key: string, expected: string, actual: string): boolean {
  if (expected === actual) return true
  if (!key.startsWith('z:')) return false
  try {
    const e = decodeZoneMeta(expected)
    const a = decodeZoneMeta(actual)
    // The meta key's serial follows apex and settings changes only (the heads carry every
    // serial), and the count being retired is a reader's fallback.
    const layout = a.layout ? { buckets: a.layout.buckets } : undefined
    return (
      encodeZoneMeta({ ...a, serial: e.serial, ...(layout ? { layout } : {}) }) ===
      encodeZoneMeta(e)
    )
  } catch {
    return false
  }
}
