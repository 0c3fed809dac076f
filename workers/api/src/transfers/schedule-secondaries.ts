/**
 * @module Cron: every secondary zone with incoming settings has its SecondaryZone schedule
 * running. A zone whose settings are new (never checked), or whose last good check is older than
 * any refresh interval allows, gets `ensureScheduled`, which starts a check only when the object
 * has no alarm. Bounded per run: each run looks at the zones from a random place in zone-id order
 * (wrapping round), so zones whose schedule runs but whose checks keep failing (their primary is
 * down) cannot fill every run and keep a zone past them from being reached.
 */
import { newId } from '../http/ids.ts'
import { heldSql } from './held-copy.ts'
import { secondaryStub, type SecondaryBinding } from './secondary-stub.ts'

/** Zones looked at per shard and run. */
const PER_RUN = 100
/** A good check at least this recent means the zone's schedule is running. */
const STALE_AFTER_MS = 2 * 86400 * 1000

/** Zones with incoming settings whose copy's last good check (held-copy.ts) is none or old. */
const STALE_FROM = `SELECT i.zone_id FROM zone_transfers_incoming AS i JOIN zones AS z ON z.id = i.zone_id
  WHERE z.type = 'secondary' AND z.status = 'active'
    AND ifnull(${heldSql('z', 'secondary_checked_on')}, '') < ?1`

export interface ScheduleOptions {
  /** Zones looked at, at most. */
  perRun?: number
  /** The zone id the run starts at (tests); a random id by default. */
  start?: string
}

export async function scheduleSecondaries(
  env: SecondaryBinding & { DB: D1Database },
  now = Date.now(),
  { perRun = PER_RUN, start = newId() }: ScheduleOptions = {}
): Promise<number> {
  const staleBefore = new Date(now - STALE_AFTER_MS).toISOString()
  const [fromStart, wrapped] = await env.DB.batch<{ zone_id: string }>([
    env.DB.prepare(`${STALE_FROM} AND i.zone_id >= ?2 ORDER BY i.zone_id LIMIT ?3`).bind(
      staleBefore,
      start,
      perRun
    ),
    env.DB.prepare(`${STALE_FROM} AND i.zone_id < ?2 ORDER BY i.zone_id LIMIT ?3`).bind(
      staleBefore,
      start,
      perRun
    ),
  ])
  const zones = [...fromStart!.results, ...wrapped!.results].slice(0, perRun)
  let started = 0
  for (const { zone_id: zoneId } of zones)
    if (await secondaryStub(env, zoneId).ensureScheduled(zoneId)) started++
  return started
}
