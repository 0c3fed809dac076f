/**
 * @module The cron run: the propagation sweep (lost notifications, broken alarm chains), erasing
 * deleted zones' rows, change-log retention, staged rows of imports whose worker died, and the
 * schedules of secondary zones' transfers, on each shard; kept serials of deleted zones the clock
 * has passed, on the home database; then the zone-change feed's reconciliation with every shard's served zones. Each part is
 * bounded and independent: one failing does not stop the others, and the next run continues where
 * this one stopped.
 */
import { sweep, type SweepEnv } from '../builder/sweep.ts'
import { eraseDeletedZones } from '../zones/erase.ts'
import { discardAbandonedImports } from '../zonefile-bridge/staged-import.ts'
import { allShards, homeDb } from '../shards/databases.ts'
import { forgetPassedSerials } from '../shards/directory.ts'
import { withDb } from '../shards/zone-env.ts'
import { reconcileFeed, type FeedReconcileEnv } from '../feed/reconcile.ts'
import { compactChangeLog, retentionDays } from './change-log-retention.ts'
import { scheduleSecondaries } from '../transfers/schedule-secondaries.ts'
import type { SecondaryBinding } from '../transfers/secondary-stub.ts'

export interface MaintenanceEnv extends SweepEnv, FeedReconcileEnv, SecondaryBinding {
  CHANGE_LOG_RETENTION_DAYS?: string
}

/** One cron run over every D1 shard in turn (each part bounded per shard), then the feed's reconciliation. */
export async function maintain(env: MaintenanceEnv, now = Date.now()): Promise<void> {
  for (const { index, db } of allShards(env)) await maintainShard(withDb(env, db), index, now)
  try {
    await forgetPassedSerials(homeDb(env), now)
  } catch (e) {
    console.warn('cron: forgetting passed zone serials failed; the next run retries', e)
  }
  try {
    await reconcileFeed(env, now)
  } catch (e) {
    console.warn('cron: zone-feed reconciliation failed; the next run retries', e)
  }
}

async function maintainShard(env: MaintenanceEnv, shard: number, now: number): Promise<void> {
  const parts: [string, () => Promise<unknown>][] = [
    ['propagation sweep', () => sweep(env)],
    ['deleted-zone erase', () => eraseDeletedZones(env.DB)],
    [
      'change-log retention',
      () => compactChangeLog(env.DB, { retentionDays: retentionDays(env), now }),
    ],
    ['abandoned import cleanup', () => discardAbandonedImports(env.DB, now)],
    ['secondary zone schedules', () => scheduleSecondaries(env, now)],
  ]
  for (const [name, run] of parts) {
    try {
      await run()
    } catch (e) {
      console.warn(`cron: ${name} failed on shard ${shard}; the next run retries`, e)
    }
  }
}
