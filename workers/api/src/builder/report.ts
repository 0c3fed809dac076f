/**
 * @module Publishes a builder's progress to D1 `build_state` (read by the propagation endpoint
 * and the sweep), and takes the zone off the sweep's `zones_behind` list once it has built
 * everything committed (in the same transaction, so the two never disagree).
 */
import type { BuilderState } from './state.ts'

export async function reportBuildState(
  db: D1Database,
  s: BuilderState,
  error: { at: number; message: string } | null
): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO build_state (zone_id, zone_name, built_seq, built_at, last_full_build_at, last_error_at, last_error)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (zone_id) DO UPDATE SET zone_name = ?2, built_seq = ?3, built_at = ?4, last_full_build_at = ?5,
         last_error_at = ?6, last_error = ?7`
      )
      .bind(
        s.zoneId,
        s.zoneName ?? '',
        s.cursor,
        s.builtAt,
        s.lastFullBuildAt,
        error?.at ?? null,
        error?.message ?? null
      ),
    // A commit after the built sequence raised `seq` above it: the row stays.
    db
      .prepare('DELETE FROM zones_behind WHERE zone_id = ?1 AND seq <= ?2')
      .bind(s.zoneId, s.cursor),
  ])
}
