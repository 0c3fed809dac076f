/**
 * @module Zone-level changes under a guard: the guard of a zone as it was read, the conflict that
 * says the zone changed meanwhile and its retryable 409, and the zone as it is now.
 */
import { and, eq, ne } from 'drizzle-orm'
import { CommitConflict, type GuardContext } from '../commit/zone-change.ts'
import { zones } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import { zoneFor } from './access.ts'
import { type ZoneRow } from './model.ts'

/** The guard of a zone-level change planned against `zone` as it was read. */
export function zoneGuard(zone: ZoneRow, now: string): GuardContext {
  return {
    zoneId: zone.id,
    guard: { version: zone.version, changeSeq: zone.changeSeq, serial: zone.serial },
    now,
  }
}

export const isZoneChanged = (e: unknown): boolean =>
  e instanceof CommitConflict && e.reason === 'zone-changed'

/** The retryable 409 of a zone-level change whose guard failed: nothing was changed. */
export function zoneChangedRetry(during: string): ApiError {
  return new ApiError(
    409,
    Codes.conflictRetry,
    `The zone changed ${during}; nothing was changed. Retry the request.`
  )
}

/** The zone row as it is now in its shard, or undefined once deleted. */
export async function currentZone(
  c: Parameters<typeof zoneFor>[0],
  zoneId: string
): Promise<ZoneRow | undefined> {
  return c.var.zoneOrm
    .select()
    .from(zones)
    .where(and(eq(zones.id, zoneId), ne(zones.status, 'deleted')))
    .get()
}
