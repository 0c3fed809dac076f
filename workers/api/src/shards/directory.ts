/**
 * @module The shard directory on the home database (shard 0): account → shard, zone → account,
 * and every live zone name, so that name uniqueness and the nesting rule hold across all shards.
 * Every function here is one or two small indexed statements; nothing scans.
 */
import { reverseName } from '../records/model.ts'

export type AccountState = 'active' | 'moving'

/** Where an account's zones live, and whether its writes are fenced by a move. */
export interface ShardRoute {
  accountId: string
  shard: number
  state: AccountState
  /** Bumped by every completed move of the account. */
  epoch: number
}

interface RouteRow {
  account_id: string
  shard: number
  state: AccountState
  epoch: number
}

const toRoute = (r: RouteRow): ShardRoute => ({
  accountId: r.account_id,
  shard: r.shard,
  state: r.state,
  epoch: r.epoch,
})

/** The route of a zone (live or deleted and not yet forgotten), or null when the directory lacks it. */
export async function zoneRoute(home: D1Database, zoneId: string): Promise<ShardRoute | null> {
  const row = await home
    .prepare(
      `SELECT a.account_id, a.shard, a.state, a.epoch FROM directory_zones AS z
       JOIN directory_accounts AS a ON a.account_id = z.account_id WHERE z.zone_id = ?1`
    )
    .bind(zoneId)
    .first<RouteRow>()
  return row ? toRoute(row) : null
}

/** The route of an account, or null when it has never been placed. */
export async function accountRoute(
  home: D1Database,
  accountId: string
): Promise<ShardRoute | null> {
  const row = await home
    .prepare('SELECT account_id, shard, state, epoch FROM directory_accounts WHERE account_id = ?1')
    .bind(accountId)
    .first<RouteRow>()
  return row ? toRoute(row) : null
}

/** Places an account on `shard` unless it is placed already; returns where it is. */
export async function placeAccountOn(
  home: D1Database,
  accountId: string,
  shard: number,
  now: string
): Promise<ShardRoute> {
  const [, read] = await home.batch([
    home
      .prepare(
        `INSERT INTO directory_accounts (account_id, shard, modified_on) VALUES (?1, ?2, ?3)
         ON CONFLICT (account_id) DO NOTHING`
      )
      .bind(accountId, shard, now),
    home
      .prepare(
        'SELECT account_id, shard, state, epoch FROM directory_accounts WHERE account_id = ?1'
      )
      .bind(accountId),
  ])
  return toRoute(read!.results[0] as RouteRow)
}

/** Accounts placed on each shard (an index range per shard). */
export async function accountsPerShard(home: D1Database, shards: number): Promise<number[]> {
  const counts = await home.batch(
    Array.from({ length: shards }, (_, i) =>
      home.prepare('SELECT count(*) AS n FROM directory_accounts WHERE shard = ?1').bind(i)
    )
  )
  return counts.map((r) => (r.results[0] as { n: number }).n)
}

export type Reservation =
  { ok: true } | { ok: false; reason: 'taken' } | { ok: false; reason: 'overlap'; other: string }

/**
 * Reserves `name` for a new zone, platform-wide. The insert comes first, so the unique index
 * decides between two creators of the same name atomically; the nesting check runs after it, so of
 * two accounts creating a parent and a child at the same moment each sees the other's reservation
 * (both are refused rather than both accepted). A refused reservation is removed before returning.
 * Nesting: the name's ancestors are exact lookups, its descendants one range of reversed names
 * (`rev.` < name_rev < `rev/`, '/' sorting right after '.'): no LIKE pattern, any name length.
 */
export async function reserveZoneName(
  home: D1Database,
  z: { zoneId: string; accountId: string; name: string; now: string }
): Promise<Reservation> {
  const rev = reverseName(z.name)
  try {
    await home
      .prepare(
        'INSERT INTO directory_zones (zone_id, account_id, name, name_rev, created_on) VALUES (?1, ?2, ?3, ?4, ?5)'
      )
      .bind(z.zoneId, z.accountId, z.name, rev, z.now)
      .run()
  } catch (e) {
    if (/UNIQUE constraint failed: directory_zones\.name/.test(String((e as Error).message)))
      return { ok: false, reason: 'taken' }
    throw e
  }
  const labels = z.name.split('.')
  const ancestors = labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'))
  const hit = await home
    .prepare(
      `SELECT name FROM directory_zones WHERE name IN (SELECT value FROM json_each(?2)) AND account_id != ?1
       UNION ALL
       SELECT name FROM directory_zones WHERE name_rev > ?3 || '.' AND name_rev < ?3 || '/' AND account_id != ?1
       LIMIT 1`
    )
    .bind(z.accountId, JSON.stringify(ancestors), rev)
    .first<{ name: string }>()
  if (hit) {
    await forgetZone(home, z.zoneId)
    return { ok: false, reason: 'overlap', other: hit.name }
  }
  return { ok: true }
}

/** Undoes a reservation whose shard write failed. */
export async function forgetZone(home: D1Database, zoneId: string): Promise<void> {
  await home.prepare('DELETE FROM directory_zones WHERE zone_id = ?1').bind(zoneId).run()
}

/**
 * Frees a deleted zone's name for new zones; the row stays so the zone's purge and builder still
 * find its shard.
 */
export async function releaseZoneName(home: D1Database, zoneId: string): Promise<void> {
  await home
    .prepare('UPDATE directory_zones SET name = NULL, name_rev = NULL WHERE zone_id = ?1')
    .bind(zoneId)
    .run()
}
