/**
 * @module Account placement on the D1 shards (administrator only): where an account lives, and
 * moving it to another shard in the background (shards/move.ts, run by the account's ShardMover
 * Durable Object). See docs/shards.md.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { readBody } from '../http/body.ts'
import { ok } from '../http/envelope.ts'
import { shardCount } from '../shards/databases.ts'
import { accountRoute } from '../shards/directory.ts'
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

/** The account's ShardMover (one per account). */
const mover = (env: Env, accountId: string) =>
  env.SHARD_MOVER.get(env.SHARD_MOVER.idFromName(accountId))

shardsApp.get('/', async (c) => {
  adminOnly(c)
  const accountId = c.req.param('account_id')!
  const [route, move] = await Promise.all([
    accountRoute(homeDb(c.env), accountId),
    mover(c.env, accountId).status(),
  ])
  return ok(c, {
    account_id: accountId,
    shard: route?.shard ?? null,
    state: route?.state ?? 'unplaced',
    epoch: route?.epoch ?? 0,
    shards: shardCount(c.env),
    move,
  })
})

/** Starts a background move of the account to another shard; answered 202 with the move's status. */
shardsApp.put('/', async (c) => {
  adminOnly(c)
  const accountId = c.req.param('account_id')!
  const body = await readBody(c, moveSchema)
  const started = await mover(c.env, accountId).start(accountId, body.shard)
  if (!started.ok) throw ApiError.badRequest(Codes.invalidRequest, started.refused)
  return ok(c, started.move, 202)
})
