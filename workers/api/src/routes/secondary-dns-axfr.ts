/**
 * @module POST /zones/:zone_id/secondary_dns/force_axfr: a secondary zone pulls a full AXFR from
 * its primaries now (through its SecondaryZone object) and answers Cloudflare's "OK" once the
 * transfer is committed. A zone that is not secondary gets 400 (code 10205), one without incoming
 * settings 404 (10203), as the incoming settings routes answer; a transfer that no primary
 * completed gets 502 naming the last error.
 */
import { Hono } from 'hono'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'
import { zoneFor } from '../zones/access.ts'
import { secondaryStub } from '../transfers/secondary-stub.ts'
import { assertZoneType, settingsNotFound } from '../transfers/zone-settings.ts'

export const secondaryAxfrApp = new Hono<AppEnv>()

secondaryAxfrApp.post('/force_axfr', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  assertZoneType(zone, 'incoming')
  const result = await secondaryStub(c.env, zone.id).check(zone.id, true)
  if (result.status === 'not-secondary') throw settingsNotFound(zone, 'incoming')
  if (result.status === 'failed')
    throw new ApiError(502, Codes.transferFailed, `AXFR of ${zone.name} failed: ${result.error}`)
  return ok(c, 'OK')
})
