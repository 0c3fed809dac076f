/**
 * @module Cloudflare's zone-level zone-transfer configuration:
 *   /zones/:zone_id/secondary_dns/incoming   GET / POST / PUT / DELETE (secondary zones)
 *   /zones/:zone_id/secondary_dns/outgoing   GET / POST / PUT / DELETE (primary zones)
 *   POST /zones/:zone_id/secondary_dns/outgoing/enable | disable, GET …/outgoing/status
 * Reads need DNS Read on the zone, writes DNS Write. Writing incoming settings starts the zone's
 * SecondaryZone schedule (its first check runs at once) when it has none.
 */
import { Hono, type Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { readBody } from '../http/body.ts'
import { dnssecMeta, parseDnssecState } from '../dnssec/state.ts'
import { ok, type EnvelopeMessage } from '../http/envelope.ts'
import {
  createIncoming,
  deleteIncoming,
  getIncoming,
  incomingSchema,
  incomingToApi,
  updateIncoming,
} from '../transfers/incoming-settings.ts'
import {
  createOutgoing,
  deleteOutgoing,
  getOutgoing,
  outgoingEnabled,
  outgoingSchema,
  outgoingToApi,
  setOutgoingEnabled,
  updateOutgoing,
} from '../transfers/outgoing-settings.ts'
import { notifyCatalogLater } from '../transfers/catalog-notify.ts'
import { secondaryStub } from '../transfers/secondary-stub.ts'
import { zoneFor } from '../zones/access.ts'
import type { ZoneRow } from '../zones/model.ts'

export const secondaryDnsZoneApp = new Hono<AppEnv>()

/**
 * The note an outgoing-settings write carries while the zone is signed: DNSSEC is signed at the
 * edge as it answers, so a transfer carries the zone unsigned (docs/zone-transfers.md).
 */
function unsignedTransferNotice(zone: ZoneRow): EnvelopeMessage[] {
  if (!dnssecMeta(parseDnssecState(zone.dnssec))) return []
  return [
    {
      code: 1000,
      message:
        'DNSSEC is on for this zone, and zone transfers carry it unsigned (no DNSKEY, RRSIG or NSEC): a secondary that answers for it publicly would serve it unsigned under a signed delegation. Keep such secondaries out of the delegation, or turn DNSSEC off first.',
    },
  ]
}

/** A secondary zone with (new) incoming settings checks its primaries now if nothing is scheduled. */
function startChecks(c: Context<AppEnv>, zoneId: string): void {
  c.executionCtx.waitUntil(
    secondaryStub(c.env, zoneId)
      .ensureScheduled(zoneId)
      .then(
        () => undefined,
        (e: unknown) => console.warn('secondary zone schedule not started', zoneId, String(e))
      )
  )
}

secondaryDnsZoneApp.get('/incoming', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  const row = await getIncoming(c.var.zoneDb, zone)
  // How its checks stand, from the zone's object; left out when the object cannot be asked.
  const check = await secondaryStub(c.env, zone.id)
    .checkStatus(zone.id)
    .catch((e: unknown) => (console.warn('secondary zone status', zone.id, String(e)), null))
  return ok(c, incomingToApi(zone, row, check))
})

secondaryDnsZoneApp.post('/incoming', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const body = await readBody(c, incomingSchema)
  const created = await createIncoming(c.var.zoneDb, zone, body)
  startChecks(c, zone.id)
  return ok(c, incomingToApi(zone, created))
})

secondaryDnsZoneApp.put('/incoming', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const body = await readBody(c, incomingSchema)
  const updated = await updateIncoming(c.var.zoneDb, zone, body)
  startChecks(c, zone.id)
  return ok(c, incomingToApi(zone, updated))
})

secondaryDnsZoneApp.delete('/incoming', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  await deleteIncoming(c.var.zoneDb, zone)
  return ok(c, { id: zone.id })
})

secondaryDnsZoneApp.get('/outgoing', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  return ok(c, outgoingToApi(zone, await getOutgoing(c.var.zoneDb, zone)))
})

secondaryDnsZoneApp.post('/outgoing', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const body = await readBody(c, outgoingSchema)
  const created = await createOutgoing(c.var.zoneDb, zone, body)
  return ok(c, outgoingToApi(zone, created), 200, unsignedTransferNotice(zone))
})

secondaryDnsZoneApp.put('/outgoing', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const body = await readBody(c, outgoingSchema)
  const updated = await updateOutgoing(c.var.zoneDb, zone, body)
  return ok(c, outgoingToApi(zone, updated), 200, unsignedTransferNotice(zone))
})

secondaryDnsZoneApp.delete('/outgoing', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  await deleteOutgoing(c.var.zoneDb, zone)
  notifyCatalogLater(c, zone.accountId)
  return ok(c, { id: zone.id })
})

secondaryDnsZoneApp.post('/outgoing/enable', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  await setOutgoingEnabled(c.var.zoneDb, zone, true)
  notifyCatalogLater(c, zone.accountId)
  return ok(c, 'Enabled', 200, unsignedTransferNotice(zone))
})

secondaryDnsZoneApp.post('/outgoing/disable', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  await setOutgoingEnabled(c.var.zoneDb, zone, false)
  notifyCatalogLater(c, zone.accountId)
  return ok(c, 'Disabled')
})

secondaryDnsZoneApp.get('/outgoing/status', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  return ok(c, (await outgoingEnabled(c.var.zoneDb, zone)) ? 'Enabled' : 'Disabled')
})
