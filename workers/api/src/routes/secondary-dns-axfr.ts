/**
 * @module POST /zones/:zone_id/secondary_dns/force_axfr: a secondary zone pulls a full AXFR from
 * its primaries now (through its SecondaryZone object) and answers Cloudflare's "OK" once the
 * transfer is committed. A zone that is not secondary, or has no incoming settings, gets 400; a
 * transfer that no primary completed gets 502 naming the last error.
 */
import { Hono } from 'hono'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'
import { zoneFor } from '../zones/access.ts'
import { secondaryStub } from '../transfers/secondary-stub.ts'

export const secondaryAxfrApp = new Hono<AppEnv>()

secondaryAxfrApp.post('/force_axfr', async (c) => {
  const zone = await zoneFor(c, 'dns:edit')
  const notSecondary = () =>
    ApiError.badRequest(
      Codes.notSecondaryZone,
      `Zone ${zone.name} is not a secondary zone with incoming transfer settings (type ${zone.type}); see /zones/${zone.id}/secondary_dns/incoming`
    )
  if (zone.type !== 'secondary') throw notSecondary()
  const result = await secondaryStub(c.env, zone.id).check(zone.id, true)
  if (result.status === 'not-secondary') throw notSecondary()
  if (result.status === 'failed')
    throw new ApiError(502, Codes.transferFailed, `AXFR of ${zone.name} failed: ${result.error}`)
  return ok(c, 'OK')
})
