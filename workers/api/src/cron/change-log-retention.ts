/**
 * @module Change-log retention, run from the cron sweep. The change log is both the builder's outbox
 * and the audit trail; left alone it grows without bound against D1's 10 GB per database. An entry
 * is removed only once it is built (seq ≤ the zone's built_seq), and then:
 *   - audit entries (create/update/delete), the SOA entries that end an IXFR into a secondary
 *     zone (an IXFR out of that zone is answered from both) and the `replace` entries of transfers
 *     that replaced a zone's records whole (an account move's catch-up reads them to copy the zone
 *     again, however long its copy took), when older than the retention window
 *     (`CHANGE_LOG_RETENTION_DAYS`, default 90);
 *   - builder-only entries (zone settings, full-build requests, zone deletion) at once: the audit
 *     never shows them, so built ones are compacted away;
 *   - every entry of a zone that no longer exists.
 * The zone's SOA serials from before its oldest remaining entry (`zone_serials`, used by IXFR) go too.
 * Work is bounded: a few zones per run, from a random starting id (so every zone comes round
 * without stored state), each statement scanning at most SCAN_SEQS sequence numbers from the
 * zone's oldest entry and deleting at most DELETE_CHUNK rows.
 */

export const DEFAULT_RETENTION_DAYS = 90
const ZONES_PER_RUN = 20
const SCAN_SEQS = 20_000
const DELETE_CHUNK = 5000

export interface RetentionOptions {
  retentionDays: number
  now: number
  zonesPerRun?: number
  /** Where in the zone id space this run starts (random by default). */
  startAfter?: string
}

export function retentionDays(env: { CHANGE_LOG_RETENTION_DAYS?: string }): number {
  const n = Number(env.CHANGE_LOG_RETENTION_DAYS)
  return env.CHANGE_LOG_RETENTION_DAYS !== undefined && Number.isFinite(n) && n >= 0
    ? n
    : DEFAULT_RETENTION_DAYS
}

function randomIdPrefix(): string {
  const b = crypto.getRandomValues(new Uint8Array(4))
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
}

const DELETE_BUILT = `DELETE FROM change_log WHERE rowid IN (
  SELECT c.rowid FROM change_log c
   WHERE c.zone_id = ?1 AND c.seq >= ?2 AND c.seq < ?2 + ?3 AND c.seq <= ?4
     AND (?5 OR c.created_on < ?6 OR c.op NOT IN ('create', 'update', 'delete', 'soa', 'replace'))
   ORDER BY c.seq LIMIT ?7)`

/** Serials older than the zone's oldest change-log entry lead to no IXFR: they go with it. */
const DELETE_SERIALS = `DELETE FROM zone_serials WHERE zone_id = ?1
   AND seq < ifnull((SELECT min(seq) FROM change_log WHERE zone_id = ?1), 9007199254740991) - 1`

/** Removes built change-log entries past retention for a few zones; returns how many rows went. */
export async function compactChangeLog(
  db: D1Database,
  options: RetentionOptions
): Promise<{ zones: number; deleted: number }> {
  const cutoff = new Date(options.now - options.retentionDays * 86_400_000).toISOString()
  const limit = options.zonesPerRun ?? ZONES_PER_RUN
  const start = options.startAfter ?? randomIdPrefix()
  const pick = (sql: string, arg: string) =>
    db
      .prepare(
        `SELECT b.zone_id, b.built_seq, (SELECT min(seq) FROM change_log c WHERE c.zone_id = b.zone_id) AS oldest,
                (SELECT count(*) FROM zones z WHERE z.id = b.zone_id AND z.status != 'deleted') AS live
           FROM build_state b WHERE ${sql} ORDER BY b.zone_id LIMIT ?2`
      )
      .bind(arg, limit)
      .all<{ zone_id: string; built_seq: number; oldest: number | null; live: number }>()
  const first = (await pick('b.zone_id > ?1', start)).results
  const zones =
    first.length < limit
      ? [...first, ...(await pick('b.zone_id <= ?1', start)).results.slice(0, limit - first.length)]
      : first
  let deleted = 0
  for (const z of zones) {
    if (z.oldest === null || z.oldest > z.built_seq) continue
    const r = await db
      .prepare(DELETE_BUILT)
      .bind(z.zone_id, z.oldest, SCAN_SEQS, z.built_seq, z.live === 0 ? 1 : 0, cutoff, DELETE_CHUNK)
      .run()
    deleted += r.meta.changes
    await db.prepare(DELETE_SERIALS).bind(z.zone_id).run()
  }
  return { zones: zones.length, deleted }
}
