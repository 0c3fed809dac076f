/**
 * @module POST /propagation/sweep (admin): runs the propagation sweep now — what the cron trigger does
 * every minute. `pnpm dev` calls it, because `wrangler dev` fires no cron triggers.
 */
import { Hono } from 'hono'
import { sweep, type SweepResult } from '../builder/sweep.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'
import { allShards } from '../shards/databases.ts'
import { withDb } from '../shards/zone-env.ts'

export const sweepApp = new Hono<AppEnv>()

sweepApp.post('/', async (c) => {
  if (!c.var.principal.admin)
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: only an administrator token can run the propagation sweep'
    )
  const total: SweepResult = { lagging: 0, notified: 0, failed: 0, cleared: 0 }
  for (const { db } of allShards(c.env)) {
    const r = await sweep(withDb(c.env, db))
    for (const key of Object.keys(total) as (keyof SweepResult)[]) total[key] += r[key]
  }
  return ok(c, total)
})
