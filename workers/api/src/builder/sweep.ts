/**
 * @module Propagation sweep (cron): notifies the builder of every zone whose committed change log
 * is ahead of its built sequence (live zones, and deleted zones whose purge is not built yet).
 * Heals lost notifications and builders whose alarm chain broke.
 *
 * It never scans the zones: its work list is `zones_behind`, which every commit writes in its own
 * transaction (triggers on `zones.change_seq`) and the builder clears when it reports a built
 * sequence at or past the row's. A run reads at most `limit` rows, the least recently notified
 * first (a builder that keeps failing does not starve the others), so its cost follows the number
 * of zones behind, not the number of zones. A row whose zone is in fact built (its clearing was
 * lost) is dropped instead of notified.
 */
import { builderStub, type BuilderBinding } from '../commit/zone-change.ts'

export interface SweepEnv extends BuilderBinding {
  DB: D1Database
}

export interface SweepResult {
  /** Zones behind taken this run (at most the limit). */
  lagging: number
  notified: number
  failed: number
  /** Rows dropped because their zone had been built meanwhile. */
  cleared: number
}

export const SWEEP_LIMIT = 1000

/** The least recently notified zones behind, with their built sequence. Uses `zones_behind_notified`. */
const BEHIND_SQL = `
  SELECT w.zone_id, w.seq, coalesce(b.built_seq, 0) AS built
    FROM zones_behind w LEFT JOIN build_state b ON b.zone_id = w.zone_id
   ORDER BY w.notified_at LIMIT ?1`

const MARK_NOTIFIED_SQL = `UPDATE zones_behind SET notified_at = ?1
   WHERE zone_id IN (SELECT value FROM json_each(?2))`

const CLEAR_BUILT_SQL = `DELETE FROM zones_behind
   WHERE zone_id IN (SELECT value FROM json_each(?1))
     AND seq <= (SELECT b.built_seq FROM build_state b WHERE b.zone_id = zones_behind.zone_id)`

/** Zones whose committed change log is ahead of their build (at most `limit`, oldest notified first). */
export async function laggingZones(
  db: D1Database,
  limit = SWEEP_LIMIT
): Promise<{ zone_id: string; seq: number }[]> {
  const { results } = await db
    .prepare(BEHIND_SQL)
    .bind(limit)
    .all<{ zone_id: string; seq: number; built: number }>()
  return results.filter((r) => r.seq > r.built).map(({ zone_id, seq }) => ({ zone_id, seq }))
}

export async function sweep(
  env: SweepEnv,
  options: { limit?: number; now?: number } = {}
): Promise<SweepResult> {
  const { results } = await env.DB.prepare(BEHIND_SQL)
    .bind(options.limit ?? SWEEP_LIMIT)
    .all<{ zone_id: string; seq: number; built: number }>()
  const lagging = results.filter((r) => r.seq > r.built)
  const built = results.filter((r) => r.seq <= r.built).map((r) => r.zone_id)
  const statements = [
    env.DB.prepare(MARK_NOTIFIED_SQL).bind(
      options.now ?? Date.now(),
      JSON.stringify(lagging.map((r) => r.zone_id))
    ),
  ]
  if (built.length > 0) statements.push(env.DB.prepare(CLEAR_BUILT_SQL).bind(JSON.stringify(built)))
  if (results.length > 0) await env.DB.batch(statements)
  const settled = await Promise.allSettled(
    lagging.map(({ zone_id, seq }) => builderStub(env, zone_id).notify(zone_id, seq))
  )
  const failed = settled.filter((s) => s.status === 'rejected').length
  if (failed > 0) console.warn('propagation sweep: some builders did not answer', failed)
  return {
    lagging: lagging.length,
    notified: lagging.length - failed,
    failed,
    cleared: built.length,
  }
}
