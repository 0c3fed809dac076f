/**
 * @module Loads the zone named in the path and checks the token may act on it.
 */
import { and, eq, ne } from 'drizzle-orm'
import type { Context } from 'hono'
import { allows, type Permission } from '../auth/permissions.ts'
import { openDb, type Db } from '../db/client.ts'
import { accounts, zones } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { isId } from '../http/ids.ts'
import { shardDb } from '../shards/databases.ts'
import type { ShardRoute } from '../shards/directory.ts'
import { assertWritable, routeOfZone } from '../shards/zone-shard.ts'
import type { ZoneRow } from './model.ts'

async function readZone(db: Db, id: string): Promise<ZoneRow | undefined> {
  return db
    .select()
    .from(zones)
    .where(and(eq(zones.id, id), ne(zones.status, 'deleted')))
    .get()
}

/**
 * Loads the zone from its D1 shard (the route cached in the isolate, or one directory read) and
 * keeps that shard as the request's `zoneDb`/`zoneOrm`. A zone missing or fenced on a cached shard
 * is looked up again in the directory: its account may have moved. Writes to an account that is
 * being moved are refused with a retryable 503.
 */
async function loadRoutedZone(
  c: Context<AppEnv>,
  id: string
): Promise<{ zone: ZoneRow; route: ShardRoute }> {
  let route = await routeOfZone(c.env, id)
  let db = shardDb(c.env, route.shard)
  let orm = openDb(db)
  let zone = await readZone(orm, id)
  const fenced = (z: ZoneRow | undefined) => z?.status === 'moving' || z?.status === 'copying'
  if (!zone || fenced(zone)) {
    const fresh = await routeOfZone(c.env, id, { fresh: true })
    if (fresh.shard !== route.shard) {
      db = shardDb(c.env, fresh.shard)
      orm = openDb(db)
      zone = await readZone(orm, id)
    }
    route = fresh
  }
  if (!zone) throw new ApiError(404, Codes.zoneNotFound, `Zone ${id} not found`)
  c.set('zoneDb', db)
  c.set('zoneOrm', orm)
  return { zone, route: fenced(zone) ? { ...route, state: 'moving' } : route }
}

export async function zoneFor(c: Context<AppEnv>, perm: Permission): Promise<ZoneRow> {
  const id = c.req.param('zone_id') ?? ''
  if (!isId(id)) {
    throw ApiError.badRequest(
      Codes.zoneNotFound,
      `Could not route to ${new URL(c.req.url).pathname}, perhaps your object identifier is invalid?`
    )
  }
  const { zone, route } = await loadRoutedZone(c, id)
  if (!allows(c.var.principal, perm, { accountId: zone.accountId, zoneId: zone.id })) {
    // Names neither the zone nor its account: the token may not see either.
    throw new ApiError(
      403,
      Codes.unauthenticated,
      `Authentication error: this token lacks ${perm} on that zone`
    )
  }
  if (perm.endsWith(':edit')) assertWritable(route)
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
