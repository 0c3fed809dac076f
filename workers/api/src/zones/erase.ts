/**
 * @module Erasing a deleted zone's D1 rows in bounded pieces (its KV keys are the builder's purge). `DELETE /zones/{id}` only marks the
 * zone `deleted` (one small statement, the zone is gone for the API at once); its records go here,
 * ERASE_CHUNK rows per statement, so no statement's cost grows with the zone (D1 stops a query
 * after 30 s). The zone row itself goes last, once it has no records left, with the zone's transfer configuration. The DELETE request
 * starts this in the background and the cron sweep finishes whatever a request left behind.
 */

/** The zone's incoming and outgoing transfer configuration (secondary DNS). */
const ZONE_TRANSFER_TABLES = ['zone_transfers_outgoing', 'zone_transfers_incoming'] as const

/** Records deleted per statement: a few hundred milliseconds of D1 work at most. */
export const ERASE_CHUNK = 5000

export interface EraseProgress {
  /** Records deleted by this call. */
  deleted: number
  /** Statements that deleted records. */
  statements: number
  /** The zone row is gone too: nothing of the zone is left in D1. */
  done: boolean
}

/** Deletes up to `maxStatements` chunks of a deleted zone's records, then the zone row when empty. */
export async function eraseDeletedZone(
  db: D1Database,
  zoneId: string,
  maxStatements = 20,
  chunk = ERASE_CHUNK
): Promise<EraseProgress> {
  const progress: EraseProgress = { deleted: 0, statements: 0, done: false }
  const zone = await db
    .prepare("SELECT 1 AS x FROM zones WHERE id = ?1 AND status = 'deleted'")
    .bind(zoneId)
    .first()
  if (!zone) return progress
  while (progress.statements < maxStatements) {
    const r = await db
      .prepare(
        'DELETE FROM dns_records WHERE rowid IN (SELECT rowid FROM dns_records WHERE zone_id = ?1 LIMIT ?2)'
      )
      .bind(zoneId, chunk)
      .run()
    progress.statements++
    progress.deleted += r.meta.changes
    if (r.meta.changes < chunk) {
      // The zone's transfer configuration goes with its row (one row each, at most).
      await db.batch([
        ...ZONE_TRANSFER_TABLES.map((table) =>
          db.prepare(`DELETE FROM ${table} WHERE zone_id = ?1`).bind(zoneId)
        ),
        db
          .prepare(
            "DELETE FROM zones WHERE id = ?1 AND status = 'deleted' AND NOT EXISTS (SELECT 1 FROM dns_records WHERE zone_id = ?1)"
          )
          .bind(zoneId),
      ])
      progress.done = true
      break
    }
  }
  return progress
}

/** Continues erasing deleted zones, oldest first, until `maxStatements` are spent (cron sweep). */
export async function eraseDeletedZones(
  db: D1Database,
  maxStatements = 60
): Promise<{ zones: number; deleted: number }> {
  const { results } = await db
    .prepare("SELECT id FROM zones WHERE status = 'deleted' ORDER BY modified_on LIMIT 10")
    .all<{ id: string }>()
  let left = maxStatements
  let deleted = 0
  let zones = 0
  for (const { id } of results) {
    if (left <= 0) break
    const p = await eraseDeletedZone(db, id, left)
    left -= Math.max(1, p.statements)
    deleted += p.deleted
    if (p.done) zones++
  }
  return { zones, deleted }
}
