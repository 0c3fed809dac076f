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
import { shardSizes } from './shard-sizes.ts'

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

/**
 * How new accounts are spread over the shards (`SHARD_PLACEMENT`): to the shard holding the fewest
 * bytes (`least-bytes`, the default; fewest accounts among shards of about the same size), the
 * fewest accounts (`least-loaded`), or in turn
 * (`round-robin`). Whichever it is, a shard past the high-water mark takes no new account.
 */
export type Placement = 'least-bytes' | 'least-loaded' | 'round-robin'

export function placementOf(env: { SHARD_PLACEMENT?: string }): Placement {
  const p = env.SHARD_PLACEMENT
  return p === 'round-robin' || p === 'least-loaded' ? p : 'least-bytes'
}

/**
 * Bytes past which a shard takes no new account (`SHARD_HIGH_WATER_BYTES`). The default leaves a
 * fifth of D1's 10 GB per database for the accounts already there to grow into.
 */
export const DEFAULT_HIGH_WATER_BYTES = 8_000_000_000

export function highWaterOf(env: { SHARD_HIGH_WATER_BYTES?: string }): number {
  const n = Number(env.SHARD_HIGH_WATER_BYTES)
  return env.SHARD_HIGH_WATER_BYTES !== undefined && Number.isFinite(n) && n > 0
    ? n
    : DEFAULT_HIGH_WATER_BYTES
}

/** Size differences placement by bytes disregards (it places by account counts within one step). */
export const PLACEMENT_BYTES_STEP = 16 * 1024 * 1024

/** What placement knows of one shard. */
export interface ShardLoad {
  accounts: number
  bytes: number
}

/**
 * Picks the shard for a new account, or null when every shard is at or past `highWater` bytes.
 * Ties go to the lowest index.
 */
export function chooseShard(
  loads: readonly ShardLoad[],
  placement: Placement,
  highWater = Infinity
): number | null {
  const open = loads.flatMap((l, index) => (l.bytes < highWater ? [{ ...l, index }] : []))
  if (open.length === 0) return null
  if (placement === 'round-robin') {
    const placed = loads.reduce((a, l) => a + l.accounts, 0)
    return open[placed % open.length]!.index
  }
  // Bytes count in steps of PLACEMENT_BYTES_STEP: shards that differ by less (new, nearly empty
  // ones) share out new accounts by their counts, so a burst of accounts does not all land on one.
  const rank = (l: ShardLoad): [number, number] =>
    placement === 'least-bytes'
      ? [Math.floor(l.bytes / PLACEMENT_BYTES_STEP), l.accounts]
      : [l.accounts, 0]
  let best = open[0]!
  for (const l of open) {
    const [a, b] = rank(l)
    const [x, y] = rank(best)
    if (a < x || (a === x && b < y)) best = l
  }
  return best.index
}

/** The answer when no shard may take a new account: what the operator must do. */
function shardsFullError(highWater: number): ApiError {
  return new ApiError(
    507,
    Codes.shardsFull,
    `Every D1 shard holds ${highWater} bytes or more (SHARD_HIGH_WATER_BYTES), so no shard can take a new account: add a shard (bind the next DB_n and deploy), or move accounts off a shard (PUT /accounts/{account_id}/shard), or raise SHARD_HIGH_WATER_BYTES if D1's 10 GB limit allows`
  )
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
  env: ShardEnv & { SHARD_PLACEMENT?: string; SHARD_HIGH_WATER_BYTES?: string },
  account: AccountRow
): Promise<ShardRoute> {
  const home = homeDb(env)
  const route =
    (await accountRoute(home, account.id)) ??
    (await placeAccountOn(home, account.id, await shardForNewAccount(env), nowIso()))
  if (route.shard !== 0) await copyAccountRow(shardDb(env, route.shard), account)
  return route
}

/** The shard a new account goes to; a 507 (code 10006) when every shard is past the high-water mark. */
async function shardForNewAccount(
  env: ShardEnv & { SHARD_PLACEMENT?: string; SHARD_HIGH_WATER_BYTES?: string }
): Promise<number> {
  const n = shardCount(env)
  const placement = placementOf(env)
  const highWater = highWaterOf(env)
  const [bytes, accounts] = await Promise.all([shardSizes(env), accountsPerShard(homeDb(env), n)])
  const chosen = chooseShard(
    bytes.map((b, i) => ({ bytes: b, accounts: accounts[i]! })),
    placement,
    highWater
  )
  if (chosen === null) throw shardsFullError(highWater)
  return chosen
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
  const held = await shardDb(env, route.shard)
    .prepare('SELECT status, serial, activated_on FROM zones WHERE id = ?1')
    .bind(holder.zone_id)
    .first<{ status: string; serial: number; activated_on: string | null }>()
  if (held && held.status !== 'deleted') return first
  const last = held
    ? { serial: held.serial, activated: held.activated_on !== null, now: z.now }
    : undefined
  await releaseZoneName(home, holder.zone_id, last)
  return reserveZoneName(home, z)
}
