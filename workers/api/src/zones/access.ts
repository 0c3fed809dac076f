/**
 * @module Loads the zone named in the path and checks the token may act on it.
 */
import { and, eq, ne } from 'drizzle-orm'
import type { Context } from 'hono'
import { allows, type Permission } from '../auth/permissions.ts'
import type { Db } from '../db/client.ts'
import { accounts, zones } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { isId } from '../http/ids.ts'
import type { ZoneRow } from './model.ts'

export async function zoneFor(c: Context<AppEnv>, perm: Permission): Promise<ZoneRow> {
  const id = c.req.param('zone_id') ?? ''
  if (!isId(id)) {
    throw ApiError.badRequest(
      Codes.zoneNotFound,
      `Could not route to ${new URL(c.req.url).pathname}, perhaps your object identifier is invalid?`
    )
  }
  const zone = await c.var.db
    .select()
    .from(zones)
    .where(and(eq(zones.id, id), ne(zones.status, 'deleted')))
    .get()
  if (!zone) throw new ApiError(404, Codes.zoneNotFound, `Zone ${id} not found`)
  if (!allows(c.var.principal, perm, { accountId: zone.accountId, zoneId: zone.id })) {
    // Names neither the zone nor its account: the token may not see either.
    throw new ApiError(
      403,
      Codes.unauthenticated,
      `Authentication error: this token lacks ${perm} on that zone`
    )
  }
  return zone
}

export async function accountName(db: Db, accountId: string): Promise<string> {
  const row = await db
    .select({ name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .get()
  return row?.name ?? ''
}
