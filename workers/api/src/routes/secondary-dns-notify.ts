/**
 * @module NOTIFY on demand (Cloudflare's route):
 *   POST /zones/:zone_id/secondary_dns/outgoing/force_notify → "OK"
 * Sends a NOTIFY round to the zone's outgoing peers now (transfers/notify.ts), after the answer.
 * A zone without outgoing transfers, or with them disabled, is a 400 that says which.
 */
import { Hono } from 'hono'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'
import { notifyPeers } from '../transfers/notify.ts'
import { outgoingConfig } from '../transfers/transfer-config.ts'
import { zoneFor } from '../zones/access.ts'

export const secondaryDnsNotifyApp = new Hono<AppEnv>()

secondaryDnsNotifyApp.post('/force_notify', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const db = c.var.zoneDb
  const config = await outgoingConfig(db, zone.accountId, zone.id)
  if (!config) {
    throw ApiError.badRequest(
      Codes.validation,
      `Zone ${zone.name} has no outgoing zone transfers configured (secondary_dns/outgoing)`
    )
  }
  if (!config.enabled) {
    throw ApiError.badRequest(
      Codes.validation,
      `Outgoing zone transfers of ${zone.name} are disabled; enable them first (secondary_dns/outgoing/enable)`
    )
  }
  c.executionCtx.waitUntil(notifyPeers(db, zone.id))
  return ok(c, 'OK')
})
