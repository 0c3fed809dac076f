/**
 * @module Moving an account's zones to another D1 shard as a background job of bounded steps,
 * while the account keeps accepting writes on the source:
 *   1. copy: the account row, then zone group by zone group (by id) its zone, build-state and
 *      zone-transfer configuration rows, then records and change log zone by zone in keyset pages; the destination's zone rows
 *      stay `copying` (unlisted, unwritable);
 *   2. catch up: every change-log entry the source wrote since the job started (by rowid, noted
 *      before the copy) is applied to the destination: the entry itself, the current source row of
 *      each record it names (or its absence: a delete), and its zone's row. Every commit writes
 *      its change-log rows in the same transaction as its records, so this converges on the source;
 *      a `replace` entry (a transfer replaced a secondary zone's records whole) names none of the
 *      records it replaced, so its zone's records are copied again first (MoveJob.recopy,
 *      `recopyUnit`), before the fence unless such entries keep coming;
 *   3. fence, only once the catch-up's tail is shorter than one page: the directory marks the
 *      account `moving` (writes get a retryable 503), the source fences zone creation and bumps
 *      its zones to `moving`, so a write planned before fails its guard;
 *   4. final pass (fenced): the last log entries, then every zone group's zone rows (back to
 *      `active` or `pending`), build state and a per-zone check that the destination's change log
 *      reaches the zone's `change_seq` (a rowid the source reused after deleting its newest rows is caught here);
 *      the zone-transfer configuration rows replaced group by group; the account's own tables (TSIG
 *      keys, peers, ACLs) replaced in keyset pages; the account row with its current settings; then the flip: the directory points the
 *      account at the destination (epoch + 1), `active`;
 *   5. retire: the source's zones become `deleted` (its erase removes their records), their change
 *      log, build state, behind-marks and transfer configuration are deleted in chunks, and each
 *      zone's builder is notified; then the account's own tables on the source.
 * Every unit of work is idempotent (upserts, deletes by id, guarded updates), so a step cut short
 * by a crash is simply done again from the last saved job. See docs/shards.md.
 */
import { builderStub } from '../commit/zone-change.ts'
import { nowIso } from '../http/ids.ts'
import { accountRoute } from './directory.ts'
import { homeDb, shardCount, shardDb } from './databases.ts'
import { forgetShardSizes } from './shard-sizes.ts'
import {
  ACCOUNT_TABLES,
  CLEANUP_CHUNK,
  COPY_TABLES,
  MOVE_PAGE_ROWS,
  MoveRefused,
  RETIRE_TABLES,
  type MoveEnv,
  type MoveJob,
} from './move-job.ts'
import { Queries, type Row } from './move-queries.ts'
import {
  applyLog,
  copyAccount,
  copyAccountTablePage,
  copyZoneRows,
  copyZoneRowTables,
  keysetPage,
  logPage,
  ofGroup,
  queueRecopies,
  recopyUnit,
  withoutRowid,
  writeRows,
  zoneGroup,
} from './move-rows.ts'

/** Times the fence waits for queued recopies to run unfenced (MoveJob.fenceWaits). */
const MAX_FENCE_WAITS = 3
/** D1 queries one step may make by default (an invocation may make 1,000 on Workers Paid). */
const DEFAULT_STEP_QUERIES = 400
/** Queries one unit of the copy may spend reading small zones before it writes what it read. */
const UNIT_READS = 100

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
    await copyZoneRowTables(q, src, dst, ids, false)
    return { ...job, zones: job.zones + zones.length, table: 1, zone: ids[0]!, key: null }
  }
  const paged = COPY_TABLES[job.table - 1]!
  const { table } = paged
  const rows: Row[] = []
  let zone = job.zone || ids[0]!
  let last = job.key
  let reads = 0
  let next: MoveJob | null = null
  // Small zones are read several to a unit, within what is left of the step's budget.
  const maxReads = Math.max(1, Math.min(UNIT_READS, q.budget - q.n - 4))
  while (rows.length < MOVE_PAGE_ROWS && reads < maxReads) {
    const want = MOVE_PAGE_ROWS - rows.length
    const page = await keysetPage(q, src, paged, zone, last, want)
    reads++
    rows.push(...page.rows)
    if (page.last) {
      last = page.last
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
  const entries = withoutRowid(page)
  await applyLog(q, src, shardDb(env, job.to), entries, fenced)
  const next = {
    ...queueRecopies(job, entries),
    caughtUp: job.caughtUp + page.length,
    logMark: page.length > 0 ? (page.at(-1)!._rowid as number) : job.logMark,
  }
  if (page.length === MOVE_PAGE_ROWS || fenced) return next
  // Recopies queued run before the fence, unless they keep coming (see MoveJob.fenceWaits).
  const waits = next.fenceWaits ?? 0
  if (next.recopy && waits < MAX_FENCE_WAITS) return { ...next, fenceWaits: waits + 1 }
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
    const index = job.accountTable ?? 0
    if (index < ACCOUNT_TABLES.length) return copyAccountTablePage(q, src, dst, job, index)
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
    return {
      ...job,
      phase: 'retire',
      epoch,
      zoneAfter: '',
      table: 0,
      zone: '',
      key: null,
      accountTable: 0,
    }
  }
  const zones = await copyZoneRows(q, src, dst, ids, true)
  const state = await q.all(
    src,
    `SELECT * FROM build_state WHERE ${ofGroup('build_state')}`,
    JSON.stringify(ids)
  )
  await writeRows(q, dst, 'build_state', state)
  await copyZoneRowTables(q, src, dst, ids, true)
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
    return nextGroup(queueRecopies(job, missing), ids.at(-1)!)
  }
  return nextGroup(job, ids.at(-1)!)
}

/** One unit of the source's retirement: a group's zones marked deleted (builders notified), then its rows deleted in chunks. */
async function retireUnit(q: Queries, env: MoveEnv, job: MoveJob): Promise<MoveJob> {
  const src = shardDb(env, job.from)
  const ids = await zoneGroup(q, src, job.accountId, job.zoneAfter)
  if (ids.length === 0) {
    // Then the account's own tables, in chunks.
    const index = job.accountTable ?? 0
    if (index < ACCOUNT_TABLES.length) {
      const table = ACCOUNT_TABLES[index]!
      const r = await q.run(
        src,
        `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE account_id = ?1 LIMIT ?2)`,
        job.accountId,
        CLEANUP_CHUNK
      )
      return r.meta.changes === CLEANUP_CHUNK ? job : { ...job, accountTable: index + 1 }
    }
    return { ...job, phase: 'done', finishedOn: nowIso() }
  }
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
  if (job.recopy) return recopyUnit(q, shardDb(env, job.from), shardDb(env, job.to), job)
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
