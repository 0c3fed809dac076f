/**
 * @module The cron's reconciliation of the zone-change feed with D1: the feed learns every zone D1
 * serves (and forgets the ones it no longer serves) even when a builder's append was lost, and
 * becomes `complete` (an isolate may then answer REFUSED from the index alone).
 *
 * At most once per `RECONCILE_INTERVAL_MS`, or at every run while the feed is not complete: one
 * pass over every shard's served zones computes their digest; only when it differs from the
 * feed's does a second pass send them, a page at a time (`reconcileBegin` / `reconcileZones` /
 * `reconcileEnd`). A page is one indexed D1 query of `SERVED_PAGE` rows and one RPC call, so a run
 * makes at most two queries per `SERVED_PAGE` served zones.
 */
import { lookupName } from '@edgedns/dns-facts'
import { released, ZoneSetDigest, type ServedZone } from '@edgedns/zone-feed'
import { allShards, type ShardEnv } from '../shards/databases.ts'
import { primaryFeed, RECONCILE_CHUNK, type ZoneFeed } from './zone-feed.ts'

/** How often D1's served set is compared with the feed's once the feed is complete. */
export const RECONCILE_INTERVAL_MS = 5 * 60_000

/** Served zones read per D1 query (and sent per RPC call). */
export const SERVED_PAGE = RECONCILE_CHUNK

export interface FeedReconcileEnv extends ShardEnv {
  ZONE_FEED?: DurableObjectNamespace<ZoneFeed>
}

export type ReconcileOutcome = 'skipped' | 'unchanged' | 'reconciled'

/**
 * Served = activated, not pending, not deleted (the builder's `isServed`); a zone copied by an
 * account move may be listed by two shards for a while, with the same id.
 */
export const SERVED_SQL = `SELECT name, id FROM zones
   WHERE status != 'deleted' AND status != 'pending' AND activated_on IS NOT NULL
     AND name >= ?1 AND (name > ?1 OR id > ?2)
   ORDER BY name, id LIMIT ?3`

/** Every served zone of every shard, a page at a time. */
async function* servedZonePages(env: ShardEnv): AsyncGenerator<ServedZone[]> {
  for (const { db } of allShards(env)) {
    let name = ''
    let id = ''
    for (;;) {
      const { results } = await db
        .prepare(SERVED_SQL)
        .bind(name, id, SERVED_PAGE)
        .all<{ name: string; id: string }>()
      if (results.length > 0) yield results.map((r) => ({ zone: lookupName(r.name), id: r.id }))
      if (results.length < SERVED_PAGE) break
      const last = results[results.length - 1]!
      name = last.name
      id = last.id
    }
  }
}

export async function reconcileFeed(
  env: FeedReconcileEnv,
  now = Date.now()
): Promise<ReconcileOutcome> {
  if (env.ZONE_FEED === undefined) return 'skipped'
  const feed = primaryFeed({ ZONE_FEED: env.ZONE_FEED })
  const state = released(await feed.digest())
  if (state.complete && state.checkedAt !== null && now - state.checkedAt < RECONCILE_INTERVAL_MS)
    return 'skipped'
  const digest = new ZoneSetDigest()
  for await (const page of servedZonePages(env)) for (const z of page) digest.add(z.zone, z.id)
  if (await feed.confirm(digest.toString())) return 'unchanged'
  const { session } = released(await feed.reconcileBegin())
  for await (const page of servedZonePages(env)) await feed.reconcileZones(session, page)
  await feed.reconcileEnd(session)
  return 'reconciled'
}
