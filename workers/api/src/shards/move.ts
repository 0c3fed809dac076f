/**
 * @module Moving an account's zones to another D1 shard without losing a change:
 *   1. fence: the directory marks the account 'moving' (new requests' writes get a retryable 503);
 *      on the source shard the account is fenced (`shard_fences`, refusing zone creation) and its
 *      live zones get status 'moving' with a version bump, so every write planned before — or
 *      routed by a stale isolate cache — fails its guard;
 *   2. copy: the account row (with its settings), its zones (back to 'active', or 'pending' if never activated), records, change log and build state,
 *      page by page, each page one bounded statement (one JSON parameter);
 *   3. flip: the directory points the account at the destination (epoch + 1), state 'active';
 *   4. retire: the source's copies become 'deleted' zones that its purge removes in bounded
 *      pieces, its change-log and build-state rows are deleted in chunks, and the builders are
 *      notified (each reads its zone's shard from the directory at every step).
 * A failure before the flip leaves the account on the source: `resumeMove` (the same call again)
 * copies idempotently and finishes. See docs/shards.md.
 */
import { builderStub, type BuilderBinding } from '../commit/zone-change.ts'
import { jsonChunks } from '../db/json-chunks.ts'
import { nowIso } from '../http/ids.ts'
import { accountRoute, type ShardRoute } from './directory.ts'
import { homeDb, shardCount, shardDb, type ShardEnv } from './databases.ts'

/** Rows read per page from the source; the page is written in JSON chunks under D1's 2 MB string limit. */
const MOVE_PAGE_ROWS = 500
/** Zone ids per copy group (as JSON text: about 200 ids of 32 hex characters). */
const MOVE_ZONE_GROUP_CHARS = 7_000
/** Rows deleted per statement when the source is cleaned up. */
const CLEANUP_CHUNK = 5000

export class MoveRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MoveRefused'
  }
}

export interface MoveReport {
  accountId: string
  from: number
  to: number
  zones: number
  records: number
  changes: number
  epoch: number
}

type Row = Record<string, unknown>

/** Copies one table's rows selected by `where` (over `zone_id`/`id` of the listed zones) page by page. */
async function copyRows(
  src: D1Database,
  dst: D1Database,
  table: string,
  where: string,
  binds: unknown[],
  shape: (row: Row) => Row = (r) => r,
  upsertOn?: string
): Promise<number> {
  let after = 0
  let copied = 0
  const n = binds.length
  for (;;) {
    const { results } = await src
      .prepare(
        `SELECT rowid AS _rowid, * FROM ${table} WHERE ${where} AND rowid > ?${n + 1} ORDER BY rowid LIMIT ?${n + 2}`
      )
      .bind(...binds, after, MOVE_PAGE_ROWS)
      .all<Row>()
    if (results.length === 0) return copied
    after = results[results.length - 1]!._rowid as number
    const rows = results.map(({ _rowid, ...rest }) => shape(rest))
    const cols = Object.keys(rows[0]!)
    const values = rows.map((r) => cols.map((c) => r[c]))
    const select = `SELECT ${cols.map((_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?1)`
    // An upsert updates a row in place; REPLACE would delete it first, and with it (ON DELETE
    // CASCADE) the rows that reference it, such as a zone's records copied by an earlier attempt.
    const sql = upsertOn
      ? `INSERT INTO ${table} (${cols.join(', ')}) ${select} WHERE true
         ON CONFLICT (${upsertOn}) DO UPDATE SET ${cols.map((c) => `${c} = excluded.${c}`).join(', ')}`
      : `INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) ${select}`
    for (const chunk of jsonChunks(values)) await dst.prepare(sql).bind(chunk).run()
    copied += rows.length
    if (results.length < MOVE_PAGE_ROWS) return copied
  }
}

/** Deletes a table's rows of the given zones in bounded chunks. */
async function deleteRows(db: D1Database, table: string, zoneIds: string): Promise<void> {
  for (;;) {
    const r = await db
      .prepare(
        `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table}
           WHERE zone_id IN (SELECT value FROM json_each(?1)) LIMIT ?2)`
      )
      .bind(zoneIds, CLEANUP_CHUNK)
      .run()
    if (r.meta.changes < CLEANUP_CHUNK) return
  }
}

async function fence(env: ShardEnv, accountId: string, to: number): Promise<ShardRoute> {
  const home = homeDb(env)
  const route = await accountRoute(home, accountId)
  if (!route) throw new MoveRefused(`account ${accountId} has no zones on any shard yet`)
  if (to < 0 || to >= shardCount(env) || !Number.isInteger(to))
    throw new MoveRefused(`shard ${to} is not bound to this worker (0…${shardCount(env) - 1})`)
  if (route.shard === to && route.state === 'active')
    throw new MoveRefused(`account ${accountId} is on shard ${to} already`)
  if (route.state === 'active') {
    const r = await home
      .prepare(
        "UPDATE directory_accounts SET state = 'moving', modified_on = ?2 WHERE account_id = ?1 AND state = 'active'"
      )
      .bind(accountId, nowIso())
      .run()
    if (r.meta.changes !== 1) throw new MoveRefused(`account ${accountId} is being moved already`)
  }
  const src = shardDb(env, route.shard)
  await src.batch([
    src
      .prepare(
        'INSERT INTO shard_fences (account_id, fenced_on) VALUES (?1, ?2) ON CONFLICT DO NOTHING'
      )
      .bind(accountId, nowIso()),
    src
      .prepare(
        "UPDATE zones SET status = 'moving', version = version + 1 WHERE account_id = ?1 AND status IN ('active', 'pending')"
      )
      .bind(accountId),
  ])
  return route
}

/**
 * Moves every zone of `accountId` to shard `to`. Safe to call again after a failure (it resumes:
 * a 'moving' account is copied again, idempotently). Writes to the account during the move are
 * refused with a retryable error; reads are served by the source until the flip.
 */
export async function moveAccount(
  env: ShardEnv & BuilderBinding,
  accountId: string,
  to: number
): Promise<MoveReport> {
  const route = await fence(env, accountId, to)
  const from = route.shard
  const src = shardDb(env, from)
  const dst = shardDb(env, to)
  // The account's own row (on the home database) holds its current settings; the source's copy
  // may be older. The destination's copy is written with all of them, replacing an older copy.
  const account = await homeDb(env)
    .prepare(
      'SELECT id, name, max_batch_changes, api_rate_limit, created_on FROM accounts WHERE id = ?1'
    )
    .bind(accountId)
    .first<Row>()
  if (!account) throw new MoveRefused(`account ${accountId} does not exist`)
  await dst.batch([
    dst
      .prepare(
        `INSERT INTO accounts (id, name, max_batch_changes, api_rate_limit, created_on)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name,
           max_batch_changes = excluded.max_batch_changes, api_rate_limit = excluded.api_rate_limit`
      )
      .bind(
        account.id,
        account.name,
        account.max_batch_changes,
        account.api_rate_limit,
        account.created_on
      ),
    dst.prepare('DELETE FROM shard_fences WHERE account_id = ?1').bind(accountId),
  ])
  const zones = await copyRows(
    src,
    dst,
    'zones',
    'account_id = ?1',
    [accountId],
    // A zone is active again when it had been activated, else pending as before the fence.
    (z) => (z.status === 'moving' ? { ...z, status: z.activated_on ? 'active' : 'pending' } : z),
    'id'
  )
  const { results: zoneRows } = await src
    .prepare("SELECT id, change_seq FROM zones WHERE account_id = ?1 AND status = 'moving'")
    .bind(accountId)
    .all<{ id: string; change_seq: number }>()
  const { results: allZoneRows } = await src
    .prepare('SELECT id FROM zones WHERE account_id = ?1')
    .bind(accountId)
    .all<{ id: string }>()
  // Zones in groups, so that queries grow with rows ÷ page size rather than with the zone count
  // (an account of many small zones stays within the queries one invocation may make).
  let records = 0
  let changes = 0
  const ofZones = 'zone_id IN (SELECT value FROM json_each(?1))'
  for (const ids of jsonChunks(
    allZoneRows.map((z) => z.id),
    MOVE_ZONE_GROUP_CHARS
  )) {
    records += await copyRows(src, dst, 'dns_records', ofZones, [ids])
    changes += await copyRows(src, dst, 'change_log', ofZones, [ids])
    await copyRows(src, dst, 'build_state', ofZones, [ids])
  }
  // Flip: from here on every route (directory read) leads to the destination.
  const flipped = await homeDb(env)
    .prepare(
      `UPDATE directory_accounts SET shard = ?2, state = 'active', epoch = epoch + 1, modified_on = ?3
       WHERE account_id = ?1 RETURNING epoch`
    )
    .bind(accountId, to, nowIso())
    .first<{ epoch: number }>()
  // Retire the source copies: the zones become 'deleted' rows its purge removes; the log, build
  // state and zones-behind entries of every zone of the account go now (the destination's insert
  // noted them behind there, and its builder clears them once built).
  for (const ids of jsonChunks(
    allZoneRows.map((z) => z.id),
    100_000
  )) {
    await src
      .prepare(
        "UPDATE zones SET status = 'deleted' WHERE id IN (SELECT value FROM json_each(?1)) AND status != 'deleted'"
      )
      .bind(ids)
      .run()
    await deleteRows(src, 'change_log', ids)
    await deleteRows(src, 'build_state', ids)
    await deleteRows(src, 'zones_behind', ids)
  }
  await Promise.allSettled(
    zoneRows.map(({ id, change_seq }) => builderStub(env, id).notify(id, change_seq))
  )
  return { accountId, from, to, zones, records, changes, epoch: flipped!.epoch }
}
