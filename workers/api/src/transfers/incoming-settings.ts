/**
 * @module A secondary zone's incoming transfer configuration (`/zones/{id}/secondary_dns/incoming`):
 * the primaries it transfers from (asked in order) and how often its SOA is checked without a
 * NOTIFY. Answered in Cloudflare's shape with the serial of the copy the zone holds (its last
 * transfer committed), that copy's last good check and what it lacks of the primary's zone
 * (`skipped_records`, skipped-records.ts), all read from the zone's record of its copy
 * (held-copy.ts): deleting the settings and writing them again keeps them.
 */
import { z } from 'zod'
import type { ZoneRow } from '../zones/model.ts'
import { domainNameSchema, parseIds, peerIdsSchema, withoutNulls } from './fields.ts'
import { heldSql } from './held-copy.ts'
import { ANSWERED_TYPES, parseSkipped } from './skipped-records.ts'
import {
  createSettings,
  deleteSettings,
  getSettings,
  updateSettings,
  type SettingsKind,
} from './settings-rows.ts'

/** Bounds of `auto_refresh_seconds`: five minutes to a week. */
const MIN_AUTO_REFRESH = 300
const MAX_AUTO_REFRESH = 7 * 86400

/** The body of POST and PUT. */
export const incomingSchema = z.object({
  name: domainNameSchema,
  peers: peerIdsSchema.min(1, 'a secondary zone needs at least one primary peer'),
  auto_refresh_seconds: z.number().int().min(MIN_AUTO_REFRESH).max(MAX_AUTO_REFRESH),
})
type IncomingInput = z.output<typeof incomingSchema>

interface IncomingRow {
  name: string
  peers: string
  auto_refresh_seconds: number
  soa_serial: number | null
  created_on: string
  modified_on: string
  checked_on: string | null
  skipped: string | null
}

/** The zone's record of its copy, as a column of the settings' read (`c`: the zone's row). */
const fromCopy = (
  column: 'secondary_serial' | 'secondary_checked_on' | 'secondary_skipped'
): string =>
  `(SELECT ${heldSql('c', column)} FROM zones AS c WHERE c.id = zone_transfers_incoming.zone_id)`

const INCOMING: SettingsKind = {
  direction: 'incoming',
  table: 'zone_transfers_incoming',
  columns: `name, peers, auto_refresh_seconds, ${fromCopy('secondary_serial')} AS soa_serial,
    created_on, modified_on, ${fromCopy('secondary_checked_on')} AS checked_on,
    ${fromCopy('secondary_skipped')} AS skipped`,
  written: ['auto_refresh_seconds'],
}

/**
 * How a secondary zone's checks stand (its SecondaryZone object): failed checks since the last good
 * one, the last one's error (null after a good one), and when the next is due (epoch ms; null:
 * none scheduled).
 */
export interface CheckStatus {
  failures: number
  lastError: string | null
  nextCheck: number | null
  /** When the copy stops being served unless a primary confirms it first (epoch ms). */
  expiresAt: number | null
  /**
   * When a primary last confirmed the copy, as the object counts it (epoch ms; null: not known
   * there). The zone's row holds it less often (held-copy.ts `confirmCopy`).
   */
  confirmedAt: number | null
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** The later of a stored time and one in epoch ms (either may be missing). */
function laterTime(stored: string | null, ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return stored
  return stored !== null && Date.parse(stored) >= ms ? stored : isoOrNull(ms)
}

/**
 * The settings as the API answers them; ours beyond Cloudflare's fields: `skipped_records`,
 * `serving` (false while the zone answers nothing: no copy yet, or its copy past the SOA's
 * expire), and, when `check` is given (a GET), `failed_checks`, `last_error`, `next_check_time`,
 * `expires_time`.
 */
export function incomingToApi(
  zone: ZoneRow,
  row: IncomingRow,
  check?: CheckStatus | null
): Record<string, unknown> {
  return withoutNulls({
    id: zone.id,
    name: row.name,
    peers: parseIds(row.peers),
    auto_refresh_seconds: row.auto_refresh_seconds,
    soa_serial: row.soa_serial,
    created_time: row.created_on,
    modified_time: row.modified_on,
    checked_time: laterTime(row.checked_on, row.soa_serial === null ? null : check?.confirmedAt),
    skipped_records: parseSkipped(row.skipped)?.types.slice(0, ANSWERED_TYPES),
    serving: !zone.secondaryExpired,
    ...(check && {
      failed_checks: check.failures,
      last_error: check.lastError,
      next_check_time: isoOrNull(check.nextCheck),
      // Only a copy held expires; a zone without one keeps no timers of a primary's.
      expires_time: row.soa_serial === null ? null : isoOrNull(check.expiresAt),
    }),
  })
}

export const getIncoming = (db: D1Database, zone: ZoneRow): Promise<IncomingRow> =>
  getSettings<IncomingRow>(db, INCOMING, zone)

export const createIncoming = (
  db: D1Database,
  zone: ZoneRow,
  input: IncomingInput
): Promise<IncomingRow> => createSettings<IncomingRow>(db, INCOMING, zone, input)

export const updateIncoming = (
  db: D1Database,
  zone: ZoneRow,
  input: IncomingInput
): Promise<IncomingRow> => updateSettings<IncomingRow>(db, INCOMING, zone, input)

export const deleteIncoming = (db: D1Database, zone: ZoneRow): Promise<void> =>
  deleteSettings(db, INCOMING, zone)
