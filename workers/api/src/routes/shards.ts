/**
 * @module Account placement on the D1 shards (administrator only): where an account lives, and
 * moving it to another shard (shards/move.ts). See docs/shards.md.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { readBody } from '../http/body.ts'
import { ok } from '../http/envelope.ts'
import { shardCount } from '../shards/databases.ts'
import { accountRoute } from '../shards/directory.ts'
import { moveAccount, MoveRefused } from '../shards/move.ts'
import { homeDb } from '../shards/databases.ts'

export const shardsApp = new Hono<AppEnv>()

export const moveSchema = z.object({ shard: z.number().int().min(0) })

function adminOnly(c: { var: AppEnv['Variables'] }): void {
  if (!c.var.principal.admin)
    throw new ApiError(
      403,
      Codes.unauthenticated,
      'Authentication error: only an administrator token can see or move account shards'
    )
}

shardsApp.get('/', async (c) => {
  adminOnly(c)
  const accountId = c.req.param('account_id')!
  const route = await accountRoute(homeDb(c.env), accountId)
  return ok(c, {
    account_id: accountId,
    shard: route?.shard ?? null,
    state: route?.state ?? 'unplaced',
    epoch: route?.epoch ?? 0,
    shards: shardCount(c.env),
  })
})

shardsApp.put('/', async (c) => {
  adminOnly(c)
  const accountId = c.req.param('account_id')!
  const body = await readBody(c, moveSchema)
  try {
    const moved = await moveAccount(c.env, accountId, body.shard)
    return ok(c, {
      account_id: moved.accountId,
      from: moved.from,
      shard: moved.to,
      epoch: moved.epoch,
      zones: moved.zones,
      records: moved.records,
      changes: moved.changes,
    })
  } catch (e) {
    if (e instanceof MoveRefused) throw ApiError.badRequest(Codes.invalidRequest, e.message)
    throw e
  }
})
