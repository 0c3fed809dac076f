/**
 * @module Propagation sweep (cron): notifies the builder of every zone whose committed change log
 * is ahead of its built sequence, and of deleted zones whose purge is not built yet. Heals lost
 * notifications and builders whose alarm chain broke.
 */
import { builderStub, type BuilderBinding } from '../commit/zone-change.ts'

export interface SweepEnv extends BuilderBinding {
  DB: D1Database
}

export interface SweepResult {
  lagging: number
  notified: number
  failed: number
}

const SWEEP_LIMIT = 1000

const LAGGING_SQL = `
  SELECT z.id AS zone_id, z.change_seq AS seq FROM zones z LEFT JOIN build_state b ON b.zone_id = z.id
   WHERE z.change_seq > coalesce(b.built_seq, 0)
  UNION ALL
  SELECT c.zone_id, c.seq FROM change_log c LEFT JOIN build_state b ON b.zone_id = c.zone_id
   WHERE c.op = 'zone_delete' AND c.seq > coalesce(b.built_seq, 0)
  LIMIT ?1`

export async function laggingZones(
  db: D1Database,
  limit = SWEEP_LIMIT
): Promise<{ zone_id: string; seq: number }[]> {
  const { results } = await db
    .prepare(LAGGING_SQL)
    .bind(limit)
    .all<{ zone_id: string; seq: number }>()
  return results
}

export async function sweep(env: SweepEnv): Promise<SweepResult> {
  const lagging = await laggingZones(env.DB)
  const settled = await Promise.allSettled(
    lagging.map(({ zone_id, seq }) => builderStub(env, zone_id).notify(zone_id, seq))
  )
  const failed = settled.filter((s) => s.status === 'rejected').length
  if (failed > 0) console.warn('propagation sweep: some builders did not answer', failed)
  return { lagging: lagging.length, notified: lagging.length - failed, failed }
}
