/**
 * @module GET /zones/{id}/pagerules: page rules are a proxy feature this platform does not have; the
 * listing answers as Cloudflare does for a zone without any (an empty list), so tools that read it by
 * default (octoDNS's Cloudflare provider) work. Nothing can be created here.
 */
import { Hono } from 'hono'
import { ApiError } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'
import { zoneFor } from '../zones/access.ts'

export const pageRulesApp = new Hono<AppEnv>()

pageRulesApp.get('/', async (c) => {
  await zoneFor(c, 'zone:read').catch((e) => {
    // DNS-only tokens read it too: the DNS tools that ask for it hold DNS permissions.
    if (e instanceof ApiError && e.status === 403) return zoneFor(c, 'dns:read')
    throw e
  })
  return ok(c, [])
})
