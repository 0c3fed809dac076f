/**
 * @module A pending zone, without the DOM: what proves its ownership (the TXT record's name and
 * value, or the delegation to its name servers) and what an activation check answered.
 */

/** Owner name label of the TXT record that proves a zone (docs/zone-ownership.md). */
const VERIFICATION_LABEL = '_edgedns-verify'

/** Message code of an activation check that leaves the zone pending. */
const ZONE_STILL_PENDING = 10005

/** What the owner of a pending zone publishes; null for a zone that is not pending. */
export function pendingInstructions(zone) {
  if (!zone || zone.status !== 'pending') return null
  const vanity = zone.vanity_name_servers ?? []
  return {
    txtName: `${VERIFICATION_LABEL}.${zone.name}`,
    txtValue: zone.verification_key,
    nameServers: vanity.length > 0 ? vanity : (zone.name_servers ?? []),
  }
}

/** The envelope of `PUT …/activation_check`: still pending (with the API's reason), or activated. */
export function activationOutcome(envelope) {
  const pending = (envelope.messages ?? []).find((m) => m.code === ZONE_STILL_PENDING)
  return pending
    ? { activated: false, message: pending.message }
    : { activated: true, message: null }
}
