/**
 * @module A secondary zone's expiry as a change of the zone: on when its primaries have not
 * answered for its SOA expire interval (it then answers SERVFAIL), off again after a good check.
 */
import {
  commitZoneChange,
  guardStatement,
  zoneLogStatement,
  type ZoneGuard,
} from '../commit/zone-change.ts'

/** Expiry on or off; the serial stays the primary's (the guard would move it). */
const SET_EXPIRED = 'UPDATE zones SET secondary_expired = ?2, serial = ?3 WHERE id = ?1'

/**
 * Marks the zone expired (it answers SERVFAIL) or live again, as one guarded change with a
 * zone-level change-log entry, so the builder republishes the zone's metadata.
 */
export async function commitExpiry(
  db: D1Database,
  zoneId: string,
  guard: ZoneGuard,
  expired: boolean
): Promise<number> {
  const now = new Date().toISOString()
  await commitZoneChange(db, [
    guardStatement(db, { zoneId, guard, now }, 1),
    db.prepare(SET_EXPIRED).bind(zoneId, expired ? 1 : 0, guard.serial),
    zoneLogStatement(db, zoneId, guard.changeSeq + 1, 'zone', now),
  ])
  return guard.changeSeq + 1
}
