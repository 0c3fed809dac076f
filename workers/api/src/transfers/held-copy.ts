/**
 * @module The copy of its primary's zone that a secondary zone holds, recorded on the zone's row
 * (`zones.secondary_serial`, `secondary_checked_on`, `secondary_source`) so that it belongs to the
 * zone and outlives its incoming settings. Each transfer committed records its serial, its time,
 * the primary it came from (`address#port`) and what the copy lacks of the primary's zone
 * (skipped-records.ts); each check that finds the copy current, its time.
 * The copy is held while the zone is secondary and its serial is the copy's (a zone that was
 * another type since has moved it). This record is the one home of those facts: the incoming
 * settings answer their `soa_serial` and `checked_time` from it (`heldSql`), so deleting the
 * settings and writing them again keeps them, the zone is checked and brought up to date (IXFR)
 * from its copy, and its expiry counts from its last good check. Settings that no longer name the
 * primary the copy came from pull it whole (AXFR): another server's serials may not follow that
 * primary's.
 * A copy whose report of what it lacks was made by an earlier record mapping is pulled whole too.
 */
import { RECORD_MAPPING } from './record-map.ts'
import { parseSkipped } from './skipped-records.ts'

/** The zone row's record of the copy (read with the zone's SOA). */
export interface CopyRecord {
  serial: number
  secondary_serial: number | null
  secondary_checked_on: string | null
  secondary_source: string | null
  secondary_skipped: string | null
}

export const COPY_COLUMNS =
  'secondary_serial, secondary_checked_on, secondary_source, secondary_skipped'

/** How the copy's primary is recorded: its address and port, BIND's way (`192.0.2.1#53`). */
export const copySource = (primary: { ip: string; port: number }): string =>
  `${primary.ip}#${primary.port}`

/** Whether the zone holds the copy its record describes. */
const held = (zone: CopyRecord): boolean => zone.secondary_serial === zone.serial

/** What the copy the zone holds lacks (skipped-records.ts); null: no copy, or no report. */
export const heldSkipped = (zone: CopyRecord): string | null =>
  held(zone) ? zone.secondary_skipped : null

/** The statement of a transfer's commit that records the copy it made. */
export function recordCopy(
  db: D1Database,
  zoneId: string,
  copy: { serial: number; at: string; source: string | null; skipped: string | null }
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE zones SET secondary_serial = ?2, secondary_checked_on = ?3, secondary_source = ?4,
         secondary_skipped = ?5 WHERE id = ?1`
    )
    .bind(zoneId, copy.serial, copy.at, copy.source, copy.skipped)
}

/**
 * An SQL expression of the copy zone alias `zone` holds: its `column` (`secondary_serial`,
 * `secondary_checked_on` or `secondary_skipped`) while the copy is held, else NULL.
 */
export const heldSql = (
  zone: string,
  column: 'secondary_serial' | 'secondary_checked_on' | 'secondary_skipped'
) =>
  `CASE WHEN ${zone}.type = 'secondary' AND ${zone}.serial = ${zone}.secondary_serial
    THEN ${zone}.${column} END`

/**
 * A check found the copy the zone holds (its serial `serial`) current: the check's time becomes
 * the copy's last good check (the incoming settings' `checked_time`), written only when the one
 * stored is older than CONFIRM_WRITE_INTERVAL_S or a tenth of the SOA's expire, whichever is
 * shorter. A zone checked every refresh (300 s at least) would otherwise write its row at every
 * check; the zone's SecondaryZone object keeps the exact time (its expiry runs on it, and `GET`
 * answers it), and the row's time, read only when the object has lost its state, is older than
 * the truth by at most that interval: the zone would then expire that much early, never late.
 */
export async function confirmCopy(
  db: D1Database,
  zoneId: string,
  serial: number
): Promise<{ status: 'current'; serial: number }> {
  await db
    .prepare(
      `UPDATE zones SET secondary_checked_on = ?2
       WHERE id = ?1 AND type = 'secondary' AND serial = ?3 AND secondary_serial = ?3
         AND (julianday(secondary_checked_on) IS NULL
           OR (julianday(?2) - julianday(secondary_checked_on)) * 86400
              >= min(?4, soa_expire / 10.0))`
    )
    .bind(zoneId, new Date().toISOString(), serial, CONFIRM_WRITE_INTERVAL_S)
    .run()
  return { status: 'current', serial }
}

/** The longest a copy's confirmation waits to be written to its zone's row (`confirmCopy`). */
const CONFIRM_WRITE_INTERVAL_S = 3600

/** When a primary last confirmed the copy held, in seconds since the epoch; null: none held. */
export function confirmedAt(zone: CopyRecord): number | null {
  if (!held(zone) || zone.secondary_checked_on === null) return null
  const ms = Date.parse(zone.secondary_checked_on)
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000)
}

/**
 * Whether the copy held may lack records an earlier record mapping left out (record-map.ts
 * `RECORD_MAPPING`): its report is of an earlier version and lacks something, or it has none (a
 * copy made before reports were kept, by the first mapping). Pull it by AXFR, so it gains what the
 * mapping keeps now. A copy that lacked nothing is left as it is.
 */
export function mappedBefore(zone: CopyRecord | null): boolean {
  if (!zone || !held(zone)) return false
  const report = parseSkipped(zone.secondary_skipped)
  return report === null || (report.mapping < RECORD_MAPPING && report.types.length > 0)
}

/** Whether the copy held came from a primary that `primaries` no longer name: pull it by AXFR. */
export function fromAnotherPrimary(
  zone: CopyRecord | null,
  primaries: { ip: string; port: number }[]
): boolean {
  if (!zone || !held(zone) || zone.secondary_source === null) return false
  return !primaries.some((p) => copySource(p) === zone.secondary_source)
}
