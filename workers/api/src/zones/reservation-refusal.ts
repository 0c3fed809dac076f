/** @module The API error for a zone name another account holds. */
import { ApiError, Codes } from '../http/api-error.ts'
import { type Reservation } from '../shards/directory.ts'

/**
 * The error for a name another account holds: the same name active there ('taken'), or an active
 * zone above or below it. Names only what the caller sent, never the other zone.
 */
export function refuseReservation(r: Reservation, name: string, verb: 'added' | 'activated'): void {
  if (r.ok) return
  if (r.reason === 'taken') {
    throw ApiError.badRequest(
      Codes.zoneExists,
      verb === 'added' ? `${name} already exists` : `${name} is active in another account`
    )
  }
  throw ApiError.badRequest(
    Codes.zoneOverlapsOtherAccount,
    `${name} cannot be ${verb}: it is ${r.other.endsWith(`.${name}`) ? 'a parent' : 'a subdomain'} of a zone held by another account`
  )
}
