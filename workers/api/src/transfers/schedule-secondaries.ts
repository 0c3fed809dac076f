/**
 * @module Cron: every secondary zone with incoming settings has its SecondaryZone schedule
 * running. A zone whose settings are new (never checked), or whose last good check is older than
 * any refresh interval allows, gets `ensureScheduled`, which starts a check only when the object
 * has no alarm. Bounded per run; the next run continues.
 */
import { secondaryStub, type SecondaryBinding } from './secondary-stub.ts'

/** Zones looked at per shard and run. */
const PER_RUN = 100
/** A good check at least this recent means the zone's schedule is running. */
const STALE_AFTER_MS = 2 * 86400 * 1000

export async function scheduleSecondaries(
  env: SecondaryBinding & { DB: D1Database },
  now = Date.now()
): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT i.zone_id FROM zone_transfers_incoming AS i JOIN zones AS z ON z.id = i.zone_id
     WHERE z.type = 'secondary' AND z.status = 'active' AND (i.checked_on IS NULL OR i.checked_on < ?1)
     LIMIT ?2`
  )
    .bind(new Date(now - STALE_AFTER_MS).toISOString(), PER_RUN)
    .all<{ zone_id: string }>()
  let started = 0
  for (const { zone_id: zoneId } of results)
    if (await secondaryStub(env, zoneId).ensureScheduled(zoneId)) started++
  return started
}
