/**
 * @module The account named in a `/accounts/{account_id}/secondary_dns/…` path: the token's right
 * to it, and the D1 shard its transfer rows live on (beside its zones). A write to an account that
 * has no shard yet places it, as its first zone would.
 */
import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import { allows, type Permission } from '../auth/permissions.ts'
import { accounts } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { homeDb, shardDb } from '../shards/databases.ts'
import { accountRoute } from '../shards/directory.ts'
import { accountMovingError, assertWritable, placeAccount } from '../shards/zone-shard.ts'

export interface AccountDb {
  accountId: string
  db: D1Database
}

/**
 * Checks the token holds `perm` on the whole account (a grant on one of its zones is not enough:
 * these rows serve every zone of the account), then returns the account's shard. Writes to an
 * account being moved get the retryable 503.
 */
export async function accountDbFor(c: Context<AppEnv>, perm: Permission): Promise<AccountDb> {
  const accountId = c.req.param('account_id') ?? ''
  if (!allows(c.var.principal, perm, { accountId })) {
    throw new ApiError(
      403,
      Codes.unauthenticated,
      `Authentication error: this token lacks ${perm} on that account`
    )
  }
  const account = await c.var.db.select().from(accounts).where(eq(accounts.id, accountId)).get()
  if (!account) throw new ApiError(404, Codes.accountNotFound, `Account ${accountId} not found`)
  let route = await accountRoute(homeDb(c.env), accountId)
  if (perm.endsWith(':edit')) {
    route ??= await placeAccount(c.env, account)
    assertWritable(route)
  }
  return { accountId, db: shardDb(c.env, route?.shard ?? 0) }
}

/**
 * SQL true while no account move has fenced account `?{n}` on this shard: the guard of every
 * transfer-configuration write, so a write routed to the source just before a move's fence cannot
 * land after the move copied the tables (it is refused and retried on the new shard instead).
 */
export const notFencedSql = (n: number): string =>
  `NOT EXISTS (SELECT 1 FROM shard_fences WHERE account_id = ?${n})`

/** After a guarded write changed nothing: the move's retryable 503 when the account is fenced. */
export async function refuseIfFenced(db: D1Database, accountId: string): Promise<void> {
  const fenced = await db
    .prepare('SELECT 1 AS x FROM shard_fences WHERE account_id = ?1')
    .bind(accountId)
    .first()
  if (fenced) throw accountMovingError()
}
