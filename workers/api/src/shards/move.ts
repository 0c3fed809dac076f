/**
 * @module Moving an account's zones to another D1 shard as a background job of bounded steps,
 * while the account keeps accepting writes on the source:
 *   1. copy: the account row, then zone group by zone group (by id) its zone and build-state
 *      rows, then records and change log zone by zone in keyset pages; the destination's zone rows
 *      stay `copying` (unlisted, unwritable);
 *   2. catch up: every change-log entry the source wrote since the job started (by rowid, noted
 *      before the copy) is applied to the destination: the entry itself, the current source row of
 *      each record it names (or its absence: a delete), and its zone's row. Every commit writes
 *      its change-log rows in the same transaction as its records, so this converges on the source;
 *   3. fence, only once the catch-up's tail is shorter than one page: the directory marks the
 *      account `moving` (writes get a retryable 503), the source fences zone creation and bumps
 *      its zones to `moving`, so a write planned before fails its guard;
 *   4. final pass (fenced): the last log entries, then every zone group's zone rows (back to
 *      `active` or `pending`), build state and a per-zone check that the destination's change log
 *      reaches the zone's `change_seq` (a rowid the source reused after deleting its newest rows is caught here);
 *      the account row with its current settings; then the flip: the directory points the
 *      account at the destination (epoch + 1), `active`;
 *   5. retire: the source's zones become `deleted` (its erase removes their records), their change
 *      log, build state and behind-marks are deleted in chunks, and each zone's builder is notified.
 * Every unit of work is idempotent (upserts, deletes by id, guarded updates), so a step cut short
 * by a crash is simply done again from the last saved job. See docs/shards.md.
 */
import { builderStub, type BuilderBinding } from '../commit/zone-change.ts'
import { jsonChunks } from '../db/json-chunks.ts'
import { nowIso } from '../http/ids.ts'
import { accountRoute } from './directory.ts'
import { homeDb, shardCount, shardDb, type ShardEnv } from './databases.ts'
import { forgetShardSizes } from './shard-sizes.ts'

/** Rows read per page from the source; the page is written in JSON chunks under D1's 2 MB string limit. */
const MOVE_PAGE_ROWS = 500
/** Zones per group: the copy, the final pass and the retirement go through the account's zones in groups. */
const MOVE_ZONE_GROUP = 200
/** Rows deleted per statement when the source is cleaned up. */
const CLEANUP_CHUNK = 5000
/** D1 queries one step may make by default (an invocation may make 1,000 on Workers Paid). */
const DEFAULT_STEP_QUERIES = 400

/**
 * The tables copied zone by zone, in pages ordered by an index of the table (a keyset: each page
 * seeks past the last row copied, so a page costs the same at any depth of a large zone).
 */
const COPY_TABLES = [
  { table: 'dns_records', key: ['name_rev', 'type', 'content', 'ifnull(priority, -1)'] },
  { table: 'change_log', key: ['seq'] },
] as const
/** Queries one unit of the copy may spend reading small zones before it writes what it read. */
const UNIT_READS = 100
/** The source tables cleared for each zone group when it is retired (after its zones are marked deleted). */
const RETIRE_TABLES = ['change_log', 'build_state', 'zones_behind'] as const

export class MoveRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MoveRefused'
  }
}

type MovePhase = 'copy' | 'catchup' | 'final' | 'retire' | 'done'

/** A move's persisted state: enough to pick up exactly where the last saved unit of work ended. */
export interface MoveJob {
  accountId: string
  from: number
  to: number
  phase: MovePhase
  /** Source change-log rowid up to which the destination has caught up. */
  logMark: number
  /** Last zone id of the groups already done in the current phase ('' = none yet). */
  zoneAfter: string
  /**
   * Where in the current zone group the phase is: copying, 0 = its zone and build-state rows, then
   * the COPY_TABLES paged zone by zone; retiring, 0 = its zones, then RETIRE_TABLES.
   */
  table: number
  /** Copying a paged table: the zone of the group being paged ('' = the group's first). */
  zone: string
  /** Copying a paged table: the key of the last row copied of that zone (null = none yet). */
  key: unknown[] | null
  zones: number
  records: number
  changes: number
  /** Log entries applied by the catch-up (written while the account kept accepting writes). */
  caughtUp: number
  steps: number
  startedOn: string
  fencedOn: string | null
  finishedOn: string | null
  epoch: number | null
  lastError: string | null
}

type Row = Record<string, unknown>
type MoveEnv = ShardEnv & BuilderBinding

/** Counts the D1 queries of one step. */
class Queries {
  n = 0
  constructor(readonly budget: number) {}
  get spent(): boolean {
    return this.n >= this.budget
  }
  async all<T = Row>(db: D1Database, sql: string, ...binds: unknown[]): Promise<T[]> {
    this.n++
    return (
      await db
        .prepare(sql)
        .bind(...binds)
        .all<T>()
    ).results
  }
  async run(db: D1Database, sql: string, ...binds: unknown[]): Promise<D1Result> {
    this.n++
    return db
      .prepare(sql)
      .bind(...binds)
      .run()
  }
}

const ofGroup = (table: string) =>
  table === 'zones'
    ? 'id IN (SELECT value FROM json_each(?1))'
    : 'zone_id IN (SELECT value FROM json_each(?1))'

/** Writes rows into `table` (every row the same columns), one statement per JSON chunk. */
async function writeRows(
  q: Queries,
  dst: D1Database,
  table: string,
  rows: Row[],
  upsertOn?: string
): Promise<void> {
  if (rows.length === 0) return
  const cols = Object.keys(rows[0]!)
  const values = rows.map((r) => cols.map((c) => r[c]))
  const select = `SELECT ${cols.map((_, i) => `value ->> ${i}`).join(', ')} FROM json_each(?1)`
  // An upsert updates a zone in place; REPLACE would delete it first, and with it (ON DELETE
  // CASCADE) the rows that reference it, such as its records copied earlier. Records and log rows
  // are replaced: a stale destination row that a newer source row collides with (same identity)
  // goes, and the catch-up brings back whatever the source still holds.
  const sql = upsertOn
    ? `INSERT INTO ${table} (${cols.join(', ')}) ${select} WHERE true
       ON CONFLICT (${upsertOn}) DO UPDATE SET ${cols.map((c) => `${c} = excluded.${c}`).join(', ')}`
    : `INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) ${select}`
  for (const chunk of jsonChunks(values)) await q.run(dst, sql, chunk)
}

/**
 * A source zone row as the destination holds it: before the fence `copying` (left out of zone
 * lists, refused by every write guard, and routed to by nothing until the flip), in the final
 * pass back to `active` (or `pending` if never activated); a deleted zone stays deleted.
 */
function shapeZone(z: Row, fenced: boolean): Row {
  if (z.status === 'deleted') return z
  if (!fenced) return { ...z, status: 'copying' }
  return z.status === 'moving' ? { ...z, status: z.activated_on ? 'active' : 'pending' } : z
}

async function copyZoneRows(
  q: Queries,
  src: D1Database,
  dst: D1Database,
  ids: string[],
  fenced: boolean
): Promise<Row[]> {
  if (ids.length === 0) return []
  const rows = await q.all(
    src,
    'SELECT * FROM zones WHERE id IN (SELECT value FROM json_each(?1))',
    JSON.stringify(ids)
  )
  // In the order asked: a zone deleted before another of its name was created comes first.
  const at = new Map(ids.map((id, i) => [id, i]))
  rows.sort((a, b) => at.get(a.id as string)! - at.get(b.id as string)!)
  await writeRows(
    q,
    dst,
    'zones',
    rows.map((z) => shapeZone(z, fenced)),
    'id'
  )
  return rows
}

/**
 * Applies change-log entries to the destination: the entries themselves, the current source row
 * of every record they name (deleted on the destination when the source has none), and the
 * current rows of their zones.
 */
async function applyLog(
  q: Queries,
  src: D1Database,
  dst: D1Database,
  entries: Row[],
  fenced: boolean
): Promise<void> {
  if (entries.length === 0) return
  const zoneIds = [...new Set(entries.map((e) => e.zone_id as string))]
  await copyZoneRows(q, src, dst, zoneIds, fenced)
  const recordIds = [
    ...new Set(entries.flatMap((e) => (e.record_id ? [e.record_id as string] : []))),
  ]
  for (const ids of jsonChunks(recordIds, 100_000)) {
    const present = await q.all(
      src,
      'SELECT * FROM dns_records WHERE id IN (SELECT value FROM json_each(?1))',
      ids
    )
    const have = new Set(present.map((r) => r.id as string))
    const gone = (JSON.parse(ids) as string[]).filter((id) => !have.has(id))
    if (gone.length > 0)
      await q.run(
        dst,
        'DELETE FROM dns_records WHERE id IN (SELECT value FROM json_each(?1))',
        JSON.stringify(gone)
      )
    await writeRows(q, dst, 'dns_records', present)
  }
  await writeRows(q, dst, 'change_log', entries)
}

/** The next group of the account's zones after `after` (by id), with what the final pass and retirement need. */
async function zoneGroup(
  q: Queries,
  src: D1Database,
  accountId: string,
  after: string
): Promise<string[]> {
  const rows = await q.all<{ id: string }>(
    src,
    'SELECT id FROM zones WHERE account_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3',
    accountId,
    after,
    MOVE_ZONE_GROUP
  )
  return rows.map((r) => r.id)
}

/** One page of the account's change log on the source after `job.logMark`. */
async function logPage(q: Queries, src: D1Database, job: MoveJob): Promise<Row[]> {
  return q.all(
    src,
    // NOT INDEXED: a seek in rowid order past the mark (the zone index would sort the whole log).
    `SELECT rowid AS _rowid, * FROM change_log NOT INDEXED WHERE rowid > ?2
       AND zone_id IN (SELECT id FROM zones WHERE account_id = ?1) ORDER BY rowid LIMIT ?3`,
    job.accountId,
    job.logMark,
    MOVE_PAGE_ROWS
  )
}

const withoutRowid = (rows: Row[]): Row[] => rows.map(({ _rowid, ...rest }) => rest)

/** Writes the account row with its current settings (from the home database) on the destination. */
async function copyAccount(q: Queries, env: MoveEnv, job: MoveJob): Promise<void> {
  const home = homeDb(env)
  const dst = shardDb(env, job.to)
  const [account] = await q.all(
    home,
    'SELECT id, name, max_batch_changes, api_rate_limit, created_on FROM accounts WHERE id = ?1',
    job.accountId
  )
  if (!account) throw new MoveRefused(`account ${job.accountId} does not exist`)
  q.n++
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
    dst.prepare('DELETE FROM shard_fences WHERE account_id = ?1').bind(job.accountId),
  ])
}

/**
 * Checks a move request and returns its job, not yet started: the destination gets the account
 * row, and the change log's current end on the source is noted (the catch-up starts there).
 */
export async function planMove(env: MoveEnv, accountId: string, to: number): Promise<MoveJob> {
  const route = await accountRoute(homeDb(env), accountId)
  if (!route) throw new MoveRefused(`account ${accountId} has no zones on any shard yet`)
  if (to < 0 || to >= shardCount(env) || !Number.isInteger(to))
    throw new MoveRefused(`shard ${to} is not bound to this worker (0…${shardCount(env) - 1})`)
  if (route.shard === to && route.state === 'active')
    throw new MoveRefused(`account ${accountId} is on shard ${to} already`)
  const job: MoveJob = {
    accountId,
    from: route.shard,
    to,
    phase: 'copy',
    logMark: 0,
    zoneAfter: '',
    table: 0,
    zone: '',
    key: null,
    zones: 0,
    records: 0,
    changes: 0,
    caughtUp: 0,
    steps: 0,
    startedOn: nowIso(),
    fencedOn: null,
    finishedOn: null,
    epoch: null,
    lastError: null,
  }
  const q = new Queries(Infinity)
  await copyAccount(q, env, job)
  const [mark] = await q.all<{ m: number }>(
    shardDb(env, job.from),
    'SELECT ifnull(max(rowid), 0) AS m FROM change_log'
  )
  job.logMark = mark!.m
  return job
}

/** Marks the account moving in the directory and fences it on the source (idempotent). */
async function fence(q: Queries, env: MoveEnv, job: MoveJob): Promise<void> {
  await q.run(
    homeDb(env),
    "UPDATE directory_accounts SET state = 'moving', modified_on = ?2 WHERE account_id = ?1 AND shard = ?3",
    job.accountId,
    nowIso(),
    job.from
  )
  const src = shardDb(env, job.from)
  q.n++
  await src.batch([
    src
      .prepare(
        'INSERT INTO shard_fences (account_id, fenced_on) VALUES (?1, ?2) ON CONFLICT DO NOTHING'
      )
      .bind(job.accountId, nowIso()),
    src
      .prepare(
        "UPDATE zones SET status = 'moving', version = version + 1 WHERE account_id = ?1 AND status IN ('active', 'pending')"
      )
      .bind(job.accountId),
  ])
}

const nextGroup = (job: MoveJob, lastId: string): MoveJob => ({
  ...job,
  zoneAfter: lastId,
  table: 0,
  zone: '',
  key: null,
})

/** One unit of the bulk copy: a group's zone and build-state rows, or a page of a paged table. */
async function copyUnit(q: Queries, env: MoveEnv, job: MoveJob): Promise<MoveJob> {
  const src = shardDb(env, job.from)
  const dst = shardDb(env, job.to)
  const ids = await zoneGroup(q, src, job.accountId, job.zoneAfter)
  if (ids.length === 0) return { ...nextGroup(job, ''), phase: 'catchup' }
  if (job.table === 0) {
    const zones = await copyZoneRows(q, src, dst, ids, false)
    const state = await q.all(
      src,
      `SELECT * FROM build_state WHERE ${ofGroup('build_state')}`,
      JSON.stringify(ids)
    )
    await writeRows(q, dst, 'build_state', state)
    return { ...job, zones: job.zones + zones.length, table: 1, zone: ids[0]!, key: null }
  }
  const { table, key } = COPY_TABLES[job.table - 1]!
  const cols = `(${key.join(', ')})`
  const marks = key.map((_, i) => `?${i + 3}`).join(', ')
  const rows: Row[] = []
  let zone = job.zone || ids[0]!
  let last = job.key
  let reads = 0
  let next: MoveJob | null = null
  // Small zones are read several to a unit, within what is left of the step's budget.
  const maxReads = Math.max(1, Math.min(UNIT_READS, q.budget - q.n - 4))
  while (rows.length < MOVE_PAGE_ROWS && reads < maxReads) {
    const want = MOVE_PAGE_ROWS - rows.length
    const page = await q.all(
      src,
      `SELECT ${key.map((k, i) => `${k} AS _k${i}`).join(', ')}, * FROM ${table}
       WHERE zone_id = ?1 ${last ? `AND ${cols} > (${marks})` : ''}
       ORDER BY ${key.join(', ')} LIMIT ?2`,
      zone,
      want,
      ...(last ?? [])
    )
    reads++
    for (const r of page) {
      const row: Row = {}
      for (const [c, v] of Object.entries(r)) if (!c.startsWith('_k')) row[c] = v
      rows.push(row)
    }
    if (page.length === want) {
      const end = page.at(-1)!
      last = key.map((_, i) => end[`_k${i}`])
      break
    }
    // This zone is done: the next zone of the group, else the next table, else the next group.
    const after = ids.find((id) => id > zone)
    last = null
    if (after !== undefined) zone = after
    else if (job.table < COPY_TABLES.length) {
      next = { ...job, table: job.table + 1, zone: ids[0]!, key: null }
      break
    } else {
      next = nextGroup(job, ids.at(-1)!)
      break
    }
  }
  await writeRows(q, dst, table, rows)
  const counted = {
    records: job.records + (table === 'dns_records' ? rows.length : 0),
    changes: job.changes + (table === 'change_log' ? rows.length : 0),
  }
  return { ...(next ?? { ...job, zone, key: last }), ...counted }
}

/** One page of the catch-up; the fence once the source's tail is shorter than a page. */
async function catchupUnit(
  q: Queries,
  env: MoveEnv,
  job: MoveJob,
  fenced: boolean
): Promise<MoveJob> {
  const src = shardDb(env, job.from)
  const page = await logPage(q, src, job)
  await applyLog(q, src, shardDb(env, job.to), withoutRowid(page), fenced)
  const next = {
    ...job,
    caughtUp: job.caughtUp + page.length,
    logMark: page.length > 0 ? (page.at(-1)!._rowid as number) : job.logMark,
  }
  if (page.length === MOVE_PAGE_ROWS || fenced) return next
  await fence(q, env, next)
  return {
    ...next,
    phase: 'final',
    fencedOn: nowIso(),
    zoneAfter: '',
    table: 0,
    zone: '',
    key: null,
  }
}

/** One unit of the fenced final pass: the last log entries, then one zone group, then the flip. */
async function finalUnit(q: Queries, env: MoveEnv, job: MoveJob): Promise<MoveJob> {
  const src = shardDb(env, job.from)
  const dst = shardDb(env, job.to)
  if (job.zoneAfter === '' && job.table === 0) {
    const next = await catchupUnit(q, env, job, true)
    // The log is drained once a page comes back empty: then the zone groups (table 1 marks it).
    return next.logMark === job.logMark ? { ...next, table: 1 } : next
  }
  const ids = await zoneGroup(q, src, job.accountId, job.zoneAfter)
  if (ids.length === 0) {
    await copyAccount(q, env, job)
    const [flipped] = await q.all<{ epoch: number }>(
      homeDb(env),
      `UPDATE directory_accounts SET shard = ?2, state = 'active', epoch = epoch + 1, modified_on = ?3
       WHERE account_id = ?1 AND shard = ?4 RETURNING epoch`,
      job.accountId,
      job.to,
      nowIso(),
      job.from
    )
    const epoch = flipped?.epoch ?? job.epoch
    return { ...job, phase: 'retire', epoch, zoneAfter: '', table: 0, zone: '', key: null }
  }
  const zones = await copyZoneRows(q, src, dst, ids, true)
  const state = await q.all(
    src,
    `SELECT * FROM build_state WHERE ${ofGroup('build_state')}`,
    JSON.stringify(ids)
  )
  await writeRows(q, dst, 'build_state', state)
  // Every zone's log on the destination reaches its change_seq; entries a reused rowid hid from
  // the catch-up are fetched by sequence.
  const tops = await q.all<{ zone_id: string; top: number }>(
    dst,
    `SELECT zone_id, max(seq) AS top FROM change_log WHERE ${ofGroup('change_log')} GROUP BY zone_id`,
    JSON.stringify(ids)
  )
  const top = new Map(tops.map((t) => [t.zone_id, t.top]))
  const behind = zones.flatMap((z) => {
    const have = top.get(z.id as string) ?? 0
    return (z.change_seq as number) > have ? [[z.id, have]] : []
  })
  if (behind.length > 0) {
    const missing = await q.all(
      src,
      `SELECT c.* FROM json_each(?1) AS j JOIN change_log AS c
         ON c.zone_id = j.value ->> 0 AND c.seq > j.value ->> 1 ORDER BY c.rowid`,
      JSON.stringify(behind)
    )
    await applyLog(q, src, dst, missing, true)
  }
  return nextGroup(job, ids.at(-1)!)
}

/** One unit of the source's retirement: a group's zones marked deleted (builders notified), then its rows deleted in chunks. */
async function retireUnit(q: Queries, env: MoveEnv, job: MoveJob): Promise<MoveJob> {
  const src = shardDb(env, job.from)
  const ids = await zoneGroup(q, src, job.accountId, job.zoneAfter)
  if (ids.length === 0) return { ...job, phase: 'done', finishedOn: nowIso() }
  if (job.table === 0) {
    const live = await q.all<{ id: string; change_seq: number }>(
      src,
      `UPDATE zones SET status = 'deleted' WHERE id IN (SELECT value FROM json_each(?1)) AND status != 'deleted'
       RETURNING id, change_seq`,
      JSON.stringify(ids)
    )
    await Promise.allSettled(
      live.map(({ id, change_seq }) => builderStub(env, id).notify(id, change_seq))
    )
    return { ...job, table: 1 }
  }
  const table = RETIRE_TABLES[job.table - 1]!
  const r = await q.run(
    src,
    `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table}
       WHERE zone_id IN (SELECT value FROM json_each(?1)) LIMIT ?2)`,
    JSON.stringify(ids),
    CLEANUP_CHUNK
  )
  if (r.meta.changes === CLEANUP_CHUNK) return job
  if (job.table < RETIRE_TABLES.length) return { ...job, table: job.table + 1 }
  return nextGroup(job, ids.at(-1)!)
}

/** One unit of work of whatever phase the job is in; the returned job is what to save. */
async function moveUnit(q: Queries, env: MoveEnv, job: MoveJob): Promise<MoveJob> {
  switch (job.phase) {
    case 'copy':
      return copyUnit(q, env, job)
    case 'catchup':
      return catchupUnit(q, env, job, false)
    case 'final':
      return finalUnit(q, env, job)
    case 'retire':
      return retireUnit(q, env, job)
    case 'done':
      return job
  }
}

/**
 * Advances the job by units of work until the step's query budget is spent or the move is done,
 * saving the job after every unit (a crash loses at most the unit under way, which is done again).
 */
export async function moveStep(
  env: MoveEnv,
  job: MoveJob,
  save: (job: MoveJob) => Promise<void>,
  budget = DEFAULT_STEP_QUERIES
): Promise<MoveJob> {
  const q = new Queries(budget)
  let current: MoveJob = { ...job, steps: job.steps + 1, lastError: null }
  while (current.phase !== 'done' && !q.spent) {
    current = await moveUnit(q, env, current)
    await save(current)
  }
  if (current.phase === 'done') forgetShardSizes()
  return current
}

export function stepBudgetOf(env: { SHARD_MOVE_STEP_QUERIES?: string }): number {
  const n = Number(env.SHARD_MOVE_STEP_QUERIES)
  return Number.isInteger(n) && n >= 20 && n <= 900 ? n : DEFAULT_STEP_QUERIES
}
