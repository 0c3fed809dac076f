/**
 * @module Bucket versions in a head, and the versions table a head may name instead.
 *
 * A head says which version of each bucket to read: `base` (the full build that wrote them all)
 * for every bucket it does not list. Per-record passes rewrite buckets one by one, so over time
 * a large zone's head would list a version for nearly every bucket, and every head (written per
 * change, read by every isolate holding the zone) would grow with the zone. Instead, once the list
 * is long, the builder writes it once to a key of its own (the versions table, never rewritten)
 * and each head names that key and lists only the versions changed since. A reader fetches a
 * table once, keeps it, and merges each head's short list into it.
 */
import { lookupName } from '@edgedns/dns-facts'
import { KvLayoutError } from './codec.ts'
import type { BucketVersions, ZoneHead } from './types.ts'

/**
 * Key of the versions table first named by head n of the zone with this id. It shares the
 * overlay keys' prefix, so a purge of the zone's overlay keys removes it too.
 */
export function versionsTableKey(zone: string, id: string, n: number): string {
  return `o:${lookupName(zone)}:${id}:${n}:v`
}

/** `[base, [i, v, i, v, …]]`, indexes ascending: a head's `bv` field and a table's value. */
export function encodeBucketVersions(bv: BucketVersions): string {
  const flat: number[] = []
  for (const [i, v] of [...bv.changed].sort((a, b) => a[0] - b[0])) flat.push(i, v)
  return `[${bv.base},[${flat.join(',')}]]`
}

export function decodeBucketVersions(value: unknown): BucketVersions {
  let body = value
  if (typeof value === 'string') {
    try {
      body = JSON.parse(value)
    } catch {
      throw new KvLayoutError('bucket versions: not JSON')
    }
  }
  const ok = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0
  if (!Array.isArray(body) || !ok(body[0]) || !Array.isArray(body[1]) || body[1].length % 2)
    throw new KvLayoutError('head: bad bucket versions')
  const flat = body[1] as unknown[]
  const changed = new Map<number, number>()
  for (let k = 0; k < flat.length; k += 2) {
    const i = flat[k]
    const v = flat[k + 1]
    if (!ok(i) || !ok(v)) throw new KvLayoutError('head: bad bucket versions')
    changed.set(i, v)
  }
  return { base: body[0], changed }
}

/**
 * The head with its versions complete: the table's versions with the head's own list over them.
 * The table must be of the head's base (a table of another full build names other keys).
 */
export function withVersionsTable(head: ZoneHead, table: BucketVersions): ZoneHead {
  const own = head.bv
  if (!own || own.base !== table.base)
    throw new KvLayoutError(`head ${head.n}: versions table of another base`)
  const changed = new Map(table.changed)
  for (const [i, v] of own.changed) changed.set(i, v)
  const { versionsKey: _named, ...rest } = head
  return { ...rest, bv: { base: own.base, changed } }
}
