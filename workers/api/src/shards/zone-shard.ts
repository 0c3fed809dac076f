/**
 * @module "The database of this zone / this account": the one place the API and the builder turn
 * an id into a D1 shard. Zones the directory does not know (rows written straight into the home
 * database, as before shards existed) are on shard 0.
 */
import { ApiError, Codes } from '../http/api-error.ts'
import { nowIso } from '../http/ids.ts'
import {
  accountRoute,
  accountsPerShard,
  placeAccountOn,
  releaseZoneName,
  reserveZoneName,
  zoneRoute,
  type NameStatus,
  type Reservation,
  type ShardRoute,
} from './directory.ts'
import { homeDb, shardCount, shardDb, type ShardEnv } from './databases.ts'
import { cachedRoute, rememberRoute } from './route-cache.ts'

const UNPLACED = (accountId: string): ShardRoute => ({
  accountId,
  shard: 0,
  state: 'active',
  epoch: 0,
})

const SINGLE_SHARD: ShardRoute = { accountId: '', shard: 0, state: 'active', epoch: 0 }

/**
 * The zone's route: from the isolate cache, else one directory read (then cached). With a single
 * shard there is nothing to look up (no account can be moving: there is nowhere to move to).
 */
export async function routeOfZone(
  env: ShardEnv,
  zoneId: string,
  opts: { fresh?: boolean } = {}
): Promise<ShardRoute> {
  if (shardCount(env) === 1) return SINGLE_SHARD
  if (!opts.fresh) {
    const hit = cachedRoute(zoneId)
    if (hit) return hit
  }
  const route = (await zoneRoute(homeDb(env), zoneId)) ?? UNPLACED('')
  rememberRoute(zoneId, route)
  return route
}

/** Refuses a write to an account a move has fenced: a clear, retryable 503. */
export function assertWritable(route: ShardRoute): void {
  if (route.state === 'moving') throw accountMovingError()
}

/** The retryable answer to a write while its account is being moved to another shard. */
export function accountMovingError(): ApiError {
  return new ApiError(
    503,
    Codes.accountMoving,
    'This account is being moved to another database shard; writes resume in a few seconds. Retry the request.',
    { headers: { 'retry-after': '2' } }
  )
}

/** How new accounts are spread over the shards: `SHARD_PLACEMENT` = least-loaded (default) or round-robin. */
export type Placement = 'least-loaded' | 'round-robin'

export function placementOf(env: { SHARD_PLACEMENT?: string }): Placement {
  return env.SHARD_PLACEMENT === 'round-robin' ? 'round-robin' : 'least-loaded'
}

/** Picks the shard for a new account from the accounts each shard holds. */
export function chooseShard(counts: readonly number[], placement: Placement): number {
  if (placement === 'round-robin') return counts.reduce((a, b) => a + b, 0) % counts.length
  let best = 0
  for (let i = 1; i < counts.length; i++) if (counts[i]! < counts[best]!) best = i
  return best
}

/** What a shard's copy of an account row holds. */
export interface AccountRow {
  id: string
  name: string
  maxBatchChanges: number | null
  apiRateLimit?: number | null
  createdOn: string
}

/**
 * The account's route, placing it on a shard first when it has none (its first zone). The
 * account row is copied to the chosen shard, where zones reference it.
 */
export async function placeAccount(
  env: ShardEnv & { SHARD_PLACEMENT?: string },
  account: AccountRow
): Promise<ShardRoute> {
  const home = homeDb(env)
  const known = await accountRoute(home, account.id)
  const n = shardCount(env)
  const route =
    known ??
    (await placeAccountOn(
      home,
      account.id,
      n === 1 ? 0 : chooseShard(await accountsPerShard(home, n), placementOf(env)),
      nowIso()
    ))
  if (route.shard !== 0) await copyAccountRow(shardDb(env, route.shard), account)
  return route
}

/** The account's row on a shard (zones reference it); kept as it is when present. */
async function copyAccountRow(db: D1Database, account: AccountRow): Promise<void> {
  await db
    .prepare(
      `INSERT INTO accounts (id, name, max_batch_changes, api_rate_limit, created_on)
       VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (id) DO NOTHING`
    )
    .bind(
      account.id,
      account.name,
      account.maxBatchChanges,
      account.apiRateLimit ?? null,
      account.createdOn
    )
    .run()
}

/** Age after which a name reserved for a zone that is not live on its shard may be taken over. */
const STALE_RESERVATION_MS = 60_000

/**
 * Reserves a zone name (directory.ts `reserveZoneName`), first freeing it when the directory still
 * holds it for a zone that is not live on its shard (a delete that stopped between its shard commit
 * and its directory update) and was reserved more than STALE_RESERVATION_MS ago: a younger
 * reservation may be a creation whose shard write is still under way.
 */
export async function reserveName(
  env: ShardEnv,
  z: { zoneId: string; accountId: string; name: string; now: string; status?: NameStatus }
): Promise<Reservation> {
  const home = homeDb(env)
  const first = await reserveZoneName(home, z)
  if (first.ok || first.reason !== 'taken') return first
  // The holder: the name's active zone, or this account's own zone of that name.
  const holder = await home
    .prepare(
      "SELECT zone_id, created_on FROM directory_zones WHERE name = ?1 AND (status = 'active' OR account_id = ?2)"
    )
    .bind(z.name, z.accountId)
    .first<{ zone_id: string; created_on: string }>()
  if (!holder) return reserveZoneName(home, z)
  if (Date.parse(z.now) - Date.parse(holder.created_on) < STALE_RESERVATION_MS) return first
  const route = await routeOfZone(env, holder.zone_id, { fresh: true })
  const live = await shardDb(env, route.shard)
    .prepare("SELECT 1 AS x FROM zones WHERE id = ?1 AND status != 'deleted'")
    .bind(holder.zone_id)
    .first()
  if (live) return first
  await releaseZoneName(home, holder.zone_id)
  return reserveZoneName(home, z)
}
