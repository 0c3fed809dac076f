/**
 * @module POST /propagation/sweep (admin): runs the propagation sweep now — what the cron trigger does
 * every minute. `pnpm dev` calls it, because `wrangler dev` fires no cron triggers.
 */
import { Hono } from 'hono'
import { sweep } from '../builder/sweep.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'

export const sweepApp = new Hono<AppEnv>()

sweepApp.post('/', async (c) => {
  if (!c.var.principal.admin)
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: only an administrator token can run the propagation sweep'
    )
  return ok(c, await sweep(c.env))
})
