/**
 * @module The SecondaryZone Durable Object of a zone (one per zone id).
 */

/** The SecondaryZone namespace binding, typed by the worker's `Env`. */
export type SecondaryBinding = Pick<Env, 'SECONDARY_ZONE'>

export function secondaryStub(env: SecondaryBinding, zoneId: string) {
  return env.SECONDARY_ZONE.get(env.SECONDARY_ZONE.idFromName(zoneId))
}
