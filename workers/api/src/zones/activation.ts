/**
 * @module Activation of a pending zone whose ownership is proven: the name held platform-wide in
 * the directory, the zone row made active with its full build in one guarded commit, and the name
 * released again whenever the zone does not end up active.
 */
import {
  announceCommit,
  commitZoneChange,
  CommitConflict,
  guardStatement,
  zoneLogStatement,
} from '../commit/zone-change.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import { nowIso } from '../http/ids.ts'
import { homeDb } from '../shards/databases.ts'
import { activateZoneName, deactivateZoneName } from '../shards/directory.ts'
import { zoneFor } from './access.ts'
import { type ZoneRow } from './model.ts'
import { refuseReservation } from './reservation-refusal.ts'
import { currentZone, isZoneChanged, zoneChangedRetry, zoneGuard } from './zone-guard.ts'

/** Guarded commits an activation makes before it answers 409 (each after a fresh read of the zone). */
const ACTIVATION_ATTEMPTS = 3

/**
 * Makes a pending zone active: its name first, platform-wide in the directory (one account holds
 * it), then the zone row with a full-build request in one guarded commit. Other accounts' pending
 * zones of the name stay pending.
 *
 * The directory holds the name active exactly while the zone is active. Another check of the same
 * zone may commit first (its guard then fails ours): the zone is active, so the answer is the
 * winner's and the name stays held. A commit that loses to another change of the still pending zone
 * is tried again on a fresh read. Every other way out (the attempts exhausted, the zone fenced by
 * an account move or deleted, the commit refused or failed for any other reason) releases the name
 * back to pending before answering, unless the zone is active by then; nothing is held for a zone
 * that is not active, and the next check proves ownership afresh.
 */
export async function activateZone(c: Parameters<typeof zoneFor>[0], zone: ZoneRow): Promise<void> {
  const home = homeDb(c.env)
  refuseReservation(
    await activateZoneName(home, { zoneId: zone.id, accountId: zone.accountId, name: zone.name }),
    zone.name,
    'activated'
  )
  let planned = zone
  for (let attempt = 1; ; attempt++) {
    try {
      await commitActivation(c, planned)
    } catch (e) {
      const now = await currentZone(c, zone.id)
      if (now?.status === 'pending' && isZoneChanged(e) && attempt < ACTIVATION_ATTEMPTS) {
        planned = now
        continue
      }
      // The commit may have applied (ours, answered by an error) or another check's did: either
      // way the zone is active and its build is announced up to the sequence it committed.
      const active = now?.status === 'active' ? now : await releaseUnlessActive(c, zone.id)
      if (active) {
        announceCommit(c, zone.id, active.changeSeq, 1)
        return
      }
      if (isZoneChanged(e)) {
        if (!now) throw new ApiError(404, Codes.zoneNotFound, `Zone ${zone.id} not found`)
        throw zoneChangedRetry('while it was activated')
      }
      if (e instanceof CommitConflict && e.reason === 'zone-name-taken')
        throw ApiError.badRequest(Codes.zoneExists, `${zone.name} is active in another account`)
      throw e
    }
    announceCommit(c, zone.id, planned.changeSeq + 1, 1)
    // A losing check of this zone that released the name before our commit, and read the zone
    // before it, did not see it active: the name is claimed again now that it is.
    await claimForActiveZone(home, planned)
    return
  }
}

/**
 * Sets the zone's name back to pending in the directory unless the zone is active: released first,
 * then the zone is read again, and if a concurrent check made it active meanwhile the name is
 * claimed for it again. Answers the zone when it is active.
 */
export async function releaseUnlessActive(
  c: Parameters<typeof zoneFor>[0],
  zoneId: string
): Promise<ZoneRow | undefined> {
  const home = homeDb(c.env)
  await deactivateZoneName(home, zoneId)
  const now = await currentZone(c, zoneId)
  if (now?.status !== 'active') return undefined
  await claimForActiveZone(home, now)
  return now
}

/** Claims the name of an active zone in the directory (again); a refusal is logged, not answered. */
async function claimForActiveZone(home: D1Database, zone: ZoneRow): Promise<void> {
  const claim = await activateZoneName(home, {
    zoneId: zone.id,
    accountId: zone.accountId,
    name: zone.name,
  })
  if (!claim.ok)
    console.warn('the name of an active zone could not be claimed again', zone.id, claim)
}

/** The zone row made active, with its full-build request, under the guard of `zone` as read. */
async function commitActivation(c: Parameters<typeof zoneFor>[0], zone: ZoneRow): Promise<void> {
  const now = nowIso()
  const db = c.var.zoneDb
  await commitZoneChange(db, [
    guardStatement(db, zoneGuard(zone, now), 1),
    db
      .prepare(
        "UPDATE zones SET status = 'active', activated_on = ?2 WHERE id = ?1 AND status = 'pending'"
      )
      .bind(zone.id, now),
    zoneLogStatement(db, zone.id, zone.changeSeq + 1, 'full', now),
  ])
}
