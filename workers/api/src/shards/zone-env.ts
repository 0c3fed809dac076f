/**
 * @module Code written against one database (`env.DB`) run against a zone's shard: the env seen
 * through a view whose `DB` is the zone's D1 shard. With one shard the env itself is returned.
 */
import { homeDb, shardCount, shardDb, type ShardEnv } from './databases.ts'
import { routeOfZone } from './zone-shard.ts'

/** `env` with `DB` = the shard of `zoneId`, resolved from the directory (never the isolate cache). */
export async function envForZone<E extends ShardEnv>(env: E, zoneId: string): Promise<E> {
  if (shardCount(env) === 1) return env
  const db = shardDb(env, (await routeOfZone(env, zoneId, { fresh: true })).shard)
  return withDb(env, db)
}

export function withDb<E extends ShardEnv>(env: E, db: D1Database): E {
  return new Proxy(env, {
    get: (target, prop) => (prop === 'DB' ? db : Reflect.get(target, prop)),
  })
}

/** Active zone of that name on any shard (the directory's index of active names), or null. */
export async function liveZoneIdNamed(env: ShardEnv, name: string): Promise<string | null> {
  const row = await shardDb(env, 0)
    .prepare("SELECT zone_id FROM directory_zones WHERE name = ?1 AND status = 'active'")
    .bind(name)
    .first<{ zone_id: string }>()
  return row?.zone_id ?? null
}

/**
 * The active zone of that name and the D1 shard it lives on, in one directory read: its name and
 * its account's current shard (a zone whose account the directory lacks is on shard 0).
 */
export async function liveZoneShardNamed(
  env: ShardEnv,
  name: string
): Promise<{ zoneId: string; db: D1Database } | null> {
  const row = await homeDb(env)
    .prepare(
      `SELECT z.zone_id, ifnull(a.shard, 0) AS shard FROM directory_zones AS z
       LEFT JOIN directory_accounts AS a ON a.account_id = z.account_id
       WHERE z.name = ?1 AND z.status = 'active'`
    )
    .bind(name)
    .first<{ zone_id: string; shard: number }>()
  if (!row) return null
  return { zoneId: row.zone_id, db: shardDb(env, shardCount(env) === 1 ? 0 : row.shard) }
}
