/**
 * @module This isolate's packed AXFR answers (`PackedAnswerCache` of the zone-transfer package):
 * the messages of a zone's last full answer, kept for the next AXFR of the same version of the
 * zone, so the secondaries that transfer one after another after a change (or the same one again)
 * cost one read and packing of the zone, not one each. Kept within `TRANSFER_CACHE_MB` (32 MiB by
 * default, a zone of about a million address records; 0 keeps none). While a large request (a
 * batch or an import) runs, none are kept, and they are let go when it starts: it needs the
 * isolate's memory more.
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

/** A large request that never ended (its context torn down) holds keeping back no longer than this. */
const LARGE_REQUEST_MAX_MS = 5 * 60_000

let cache: PackedAnswerCache | null = null
/** Start times of the large requests running now. */
const largeRequests = new Set<{ since: number }>()

function largeRequestRunning(): boolean {
  const old = Date.now() - LARGE_REQUEST_MAX_MS
  for (const request of largeRequests) if (request.since < old) largeRequests.delete(request)
  return largeRequests.size > 0
}

/**
 * A zone's version as its transfers see it: every write to its records or to its settings moves
 * `version` in the same transaction (the version guard of every commit), and the columns an
 * answer is made of are added, so no answer of an earlier state can be found. A write outside the
 * API (SQL run by hand, a data migration) must move `zones.version` too.
 */
function versionOf(z: ZoneRow): string {
  return [
    z.version,
    z.changeSeq,
    z.serial,
    z.name,
    z.soaMname,
    z.soaRname,
    z.soaRefresh,
    z.soaRetry,
    z.soaExpire,
    z.soaMinimum,
    z.soaTtl,
    z.nsTtl,
    z.nameServers,
    z.vanityNameServers,
  ].join('|')
}

/**
 * The packed answers of `zone` as read now (none kept while a large request runs); none at all
 * when `env` sets a budget of 0.
 */
export function packedAxfrsOf(
  env: { TRANSFER_CACHE_MB?: string },
  zone: ZoneRow
): PackedAnswers | undefined {
  const budgetBytes = transferCacheBytes(env)
  if (budgetBytes === 0) return undefined
  cache ??= new PackedAnswerCache({ budgetBytes })
  const answers = cache.of(zone.id, versionOf(zone), zone.version)
  return {
    find: answers.find,
    keep: (form) => (largeRequestRunning() ? null : answers.keep(form)),
    packing: answers.packing,
  }
}

/** Runs a large request: the packed answers are let go first, and none are kept until it ends. */
export async function asLargeRequest<T>(work: () => Promise<T>): Promise<T> {
  const request = { since: Date.now() }
  largeRequests.add(request)
  cache?.clear()
  try {
    return await work()
  } finally {
    largeRequests.delete(request)
  }
}
