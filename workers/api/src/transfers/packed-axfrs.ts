/**
 * @module This isolate's packed AXFR answers (`PackedAnswerCache` of the zone-transfer package):
 * the messages of a zone's last full answer, kept for the next AXFR of the same version of the
 * zone, so the secondaries that transfer after one change (or the same one again) cost one read
 * and packing of the zone, not one each. Kept within `TRANSFER_CACHE_MB` (32 MiB by default, a
 * zone of about a million address records; 0 keeps none) and let go whenever a large request body
 * arrives (app.ts): a batch or an import needs the isolate's memory more.
 */
import { PackedAnswerCache, type PackedAnswers } from '@edgedns/zone-transfer'
import type { ZoneRow } from '../zones/model.ts'

/** The cache's budget unless `TRANSFER_CACHE_MB` says otherwise. */
const DEFAULT_TRANSFER_CACHE_MB = 32

function transferCacheBytes(env: { TRANSFER_CACHE_MB?: string }): number {
  const n = Number(env.TRANSFER_CACHE_MB)
  const mb =
    env.TRANSFER_CACHE_MB !== undefined && Number.isFinite(n) && n >= 0
      ? n
      : DEFAULT_TRANSFER_CACHE_MB
  return Math.floor(mb * 1024 * 1024)
}

let cache: PackedAnswerCache | null = null

/**
 * The packed answers of `zone` as read now: its whole row is the version, so any change to its
 * records (which moves `change_seq`), its SOA or its name servers is another version.
 */
export function packedAxfrsOf(env: { TRANSFER_CACHE_MB?: string }, zone: ZoneRow): PackedAnswers {
  cache ??= new PackedAnswerCache(transferCacheBytes(env))
  return cache.of(zone.id, JSON.stringify(zone))
}

/** Lets go of every packed answer of this isolate. */
export function releasePackedAxfrs(): void {
  cache?.clear()
}
