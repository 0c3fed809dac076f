/**
 * @module The shard directory on the home database (shard 0): account → shard, zone → account,
 * and every live zone name with its standing (pending or active), so that one account holds each
 * active name and the nesting rule hold across all shards.
 * Every function here is one or two small indexed statements; nothing scans.
 */
import { serialAfter } from '@edgedns/zone-transfer'
import { nextSerial } from '../commit/zone-change.ts'
import { reverseName } from '../records/model.ts'

type AccountState = 'active' | 'moving'

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

/** A zone's standing in the directory: `pending` names may repeat across accounts, `active` ones not. */
export type NameStatus = 'pending' | 'active'

/**
 * Reserves `name` for a new zone, platform-wide. The insert comes first, so the unique indexes
 * decide atomically between two creators of the same active name (and between two zones of that
 * name in one account); the check against other accounts' active zones runs after it, so of two
 * accounts creating a parent and a child at the same moment each sees the other's reservation
 * (both are refused rather than both accepted). A refused reservation is removed before returning.
 * A pending name conflicts with nothing of another account but its active zones.
 */
export async function reserveZoneName(
  home: D1Database,
  z: { zoneId: string; accountId: string; name: string; now: string; status?: NameStatus }
): Promise<Reservation> {
  const insert = home
    .prepare(
      'INSERT INTO directory_zones (zone_id, account_id, name, name_rev, status, created_on) VALUES (?1, ?2, ?3, ?4, ?5, ?6)'
    )
    .bind(z.zoneId, z.accountId, z.name, reverseName(z.name), z.status ?? 'active', z.now)
  return claimName(home, insert, z, forgetZone)
}

/**
 * Runs `write` (which may meet the unique indexes over names), then checks it against other
 * accounts' active zones; a refused claim is undone with `undo` before returning.
 */
async function claimName(
  home: D1Database,
  write: D1PreparedStatement,
  z: { zoneId: string; accountId: string; name: string },
  undo: (home: D1Database, zoneId: string) => Promise<void>
): Promise<Reservation> {
  try {
    await write.run()
  } catch (e) {
    if (isNameTaken(e)) return { ok: false, reason: 'taken' }
    throw e
  }
  const refused = await activeConflict(home, z.accountId, z.name)
  if (refused) await undo(home, z.zoneId)
  return refused ?? { ok: true }
}

const isNameTaken = (e: unknown): boolean =>
  /UNIQUE constraint failed: directory_zones\.(name|account_id)/.test(String((e as Error).message))

/**
 * Another account's active zone that `name` may not sit beside: the same name ('taken'), an
 * ancestor or a descendant ('overlap': the longest zone would answer for the other account's
 * names). Ancestors are exact lookups, descendants one range of reversed names (`rev.` < name_rev
 * < `rev/`, '/' sorting right after '.'): no LIKE pattern, any name length.
 */
async function activeConflict(
  home: D1Database,
  accountId: string,
  name: string
): Promise<Reservation | null> {
  const rev = reverseName(name)
  const labels = name.split('.')
  const enclosing = labels.map((_, i) => labels.slice(i).join('.'))
  const hit = await home
    .prepare(
      `SELECT name FROM directory_zones WHERE name IN (SELECT value FROM json_each(?2)) AND status = 'active' AND account_id != ?1
       UNION ALL
       SELECT name FROM directory_zones WHERE name_rev > ?3 || '.' AND name_rev < ?3 || '/' AND status = 'active' AND account_id != ?1
       LIMIT 1`
    )
    .bind(accountId, JSON.stringify(enclosing), rev)
    .first<{ name: string }>()
  if (!hit) return null
  return hit.name === name
    ? { ok: false, reason: 'taken' }
    : { ok: false, reason: 'overlap', other: hit.name }
}

/**
 * Makes a pending zone's name active, platform-wide: the update meets the unique index over active
 * names first (one account holds a name), then the same check as a reservation against other
 * accounts' active zones above and below it; a refused activation leaves the zone pending.
 */
export async function activateZoneName(
  home: D1Database,
  z: { zoneId: string; accountId: string; name: string }
): Promise<Reservation> {
  const update = home
    .prepare("UPDATE directory_zones SET status = 'active' WHERE zone_id = ?1 AND name IS NOT NULL")
    .bind(z.zoneId)
  return claimName(home, update, z, deactivateZoneName)
}

/**
 * Sets a zone's name back to pending: an activation that a conflict refused or that did not leave
 * the zone active (the caller re-reads the zone afterwards and claims the name again if it is).
 */
export async function deactivateZoneName(home: D1Database, zoneId: string): Promise<void> {
  await home
    .prepare("UPDATE directory_zones SET status = 'pending' WHERE zone_id = ?1")
    .bind(zoneId)
    .run()
}

/** How many other accounts hold `name` pending (by `name_rev`, which is indexed for every status). */
export async function pendingElsewhere(
  home: D1Database,
  accountId: string,
  name: string
): Promise<number> {
  const row = await home
    .prepare(
      "SELECT count(*) AS n FROM directory_zones WHERE name_rev = ?2 AND status = 'pending' AND account_id != ?1"
    )
    .bind(accountId, reverseName(name))
    .first<{ n: number }>()
  return row?.n ?? 0
}

/** Undoes a reservation whose shard write failed. */
export async function forgetZone(home: D1Database, zoneId: string): Promise<void> {
  await home.prepare('DELETE FROM directory_zones WHERE zone_id = ?1').bind(zoneId).run()
}

/**
 * Frees a deleted zone's name for new zones; the row stays so the zone's erase and builder still
 * find its shard. With the zone's last serial, when the zone was ever activated (served) and the
 * clock has not passed that serial (more than one commit a second), keeps it for the name in the
 * same batch, so that a zone made again under it starts after it (`firstSerial`).
 */
export async function releaseZoneName(
  home: D1Database,
  zoneId: string,
  last?: { serial: number; activated: boolean; now: string }
): Promise<void> {
  const release = home
    .prepare('UPDATE directory_zones SET name = NULL, name_rev = NULL WHERE zone_id = ?1')
    .bind(zoneId)
  // A zone never activated was never served: no secondary holds its serial.
  if (!last?.activated || serialAfter(epochSeconds(last.now), last.serial)) {
    await release.run()
    return
  }
  await home.batch([
    home
      .prepare(
        `INSERT INTO directory_name_serials (name, serial, deleted_on)
         SELECT name, ?2, ?3 FROM directory_zones WHERE zone_id = ?1 AND name IS NOT NULL
         ON CONFLICT (name) DO UPDATE SET deleted_on = excluded.deleted_on,
           serial = CASE WHEN ${serialAfterSql('excluded.serial', 'serial')}
             THEN excluded.serial ELSE serial END`
      )
      .bind(zoneId, last.serial, last.now),
    release,
  ])
}

/**
 * SQL for `serialAfter(a, b)` (RFC 1982): `a` is less than 2^31 ahead of `b`, modulo 2^32. Of two
 * zones of one name deleted in turn, the later serial is kept; a kept serial the clock is after
 * is forgotten.
 */
const serialAfterSql = (a: string, b: string): string =>
  `((${a} - ${b}) % 4294967296 + 4294967296) % 4294967296 BETWEEN 1 AND 2147483647`

/**
 * The serial a new zone named `name` starts with: the clock in epoch seconds, or when a deleted
 * zone of that name had run ahead of the clock, the serial after its last one (RFC 1982).
 */
export async function firstSerial(home: D1Database, name: string, now: string): Promise<number> {
  const row = await home
    .prepare('SELECT serial FROM directory_name_serials WHERE name = ?1')
    .bind(name)
    .first<{ serial: number }>()
  return row ? nextSerial(row.serial, Date.parse(now)) : epochSeconds(now)
}

/** Forgets kept serials the clock has passed (they no longer change a new zone's first serial). */
export async function forgetPassedSerials(home: D1Database, nowMs: number): Promise<number> {
  const result = await home
    .prepare(`DELETE FROM directory_name_serials WHERE ${serialAfterSql('?1', 'serial')}`)
    .bind(Math.floor(nowMs / 1000))
    .run()
  return result.meta.changes
}

const epochSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000)
