/**
 * @module The row copying of an account move: zone groups, zone rows (fenced or not), keyset pages
 * of records and change log, change-log entries applied, the account row.
 */
import { jsonChunks } from '../db/json-chunks.ts'
import { homeDb, shardDb } from './databases.ts'
import {
  ACCOUNT_TABLES,
  CLEANUP_CHUNK,
  COPY_TABLES,
  MOVE_PAGE_ROWS,
  MoveRefused,
  RECORDS_KEYSET,
  ZONE_ROW_TABLES,
  type MoveEnv,
  type MoveJob,
} from './move-job.ts'
import { Queries, type Row } from './move-queries.ts'

/** Zones per group: the copy, the final pass and the retirement go through the account's zones in groups. */
const MOVE_ZONE_GROUP = 200

export const ofGroup = (table: string) =>
  table === 'zones'
    ? 'id IN (SELECT value FROM json_each(?1))'
    : 'zone_id IN (SELECT value FROM json_each(?1))'

/**
 * Writes rows into `table` (every row the same columns), one statement per JSON chunk: the columns
 * the destination has (a column it lacks, dropped there first, is left out).
 */
export async function writeRows(
  q: Queries,
  dst: D1Database,
  table: string,
  rows: Row[],
  upsertOn?: string
): Promise<void> {
  if (rows.length === 0) return
  const have = await q.columns(dst, table)
  const cols = Object.keys(rows[0]!).filter((c) => have.has(c))
  if (cols.length === 0) throw new Error(`move: the destination has no table ${table}`)
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

export async function copyZoneRows(
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
export async function applyLog(
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

/**
 * One keyset page of a paged table's rows of `zone` after `last` (null: from its first), at most
 * `limit`; `last` of the page when it was full (more may follow), else null (the zone is done).
 */
export async function keysetPage(
  q: Queries,
  src: D1Database,
  { table, key }: (typeof COPY_TABLES)[number],
  zone: string,
  last: unknown[] | null,
  limit: number
): Promise<{ rows: Row[]; last: unknown[] | null }> {
  const cols = `(${key.join(', ')})`
  const marks = key.map((_, i) => `?${i + 3}`).join(', ')
  const page = await q.all(
    src,
    `SELECT ${key.map((k, i) => `${k} AS _k${i}`).join(', ')}, * FROM ${table}
     WHERE zone_id = ?1 ${last ? `AND ${cols} > (${marks})` : ''}
     ORDER BY ${key.join(', ')} LIMIT ?2`,
    zone,
    limit,
    ...(last ?? [])
  )
  const rows = page.map((r) => {
    const row: Row = {}
    for (const [c, v] of Object.entries(r)) if (!c.startsWith('_k')) row[c] = v
    return row
  })
  const end = page.length === limit ? page.at(-1)! : null
  return { rows, last: end ? key.map((_, i) => end[`_k${i}`]) : null }
}

/** The next group of the account's zones after `after` (by id), with what the final pass and retirement need. */
export async function zoneGroup(
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
export async function logPage(q: Queries, src: D1Database, job: MoveJob): Promise<Row[]> {
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

export const withoutRowid = (rows: Row[]): Row[] => rows.map(({ _rowid, ...rest }) => rest)

/** Writes the account row with its current settings (from the home database) on the destination. */
export async function copyAccount(q: Queries, env: MoveEnv, job: MoveJob): Promise<void> {
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
 * Copies a zone group's rows of the one-row-per-zone tables (ZONE_ROW_TABLES). In the fenced final
 * pass the destination's rows of the group are replaced, so a row the source deleted meanwhile goes.
 */
export async function copyZoneRowTables(
  q: Queries,
  src: D1Database,
  dst: D1Database,
  ids: string[],
  replace: boolean
): Promise<void> {
  const group = JSON.stringify(ids)
  for (const table of ZONE_ROW_TABLES) {
    const rows = await q.all(src, `SELECT * FROM ${table} WHERE ${ofGroup(table)}`, group)
    if (replace) await q.run(dst, `DELETE FROM ${table} WHERE ${ofGroup(table)}`, group)
    await writeRows(q, dst, table, rows)
  }
}

/**
 * One keyset page of the account table `ACCOUNT_TABLES[index]` copied to the destination (fenced):
 * its first page first clears the destination's rows of the account, so rows deleted on the
 * source since an earlier copy go. Returns the job past that page.
 */
export async function copyAccountTablePage(
  q: Queries,
  src: D1Database,
  dst: D1Database,
  job: MoveJob,
  index: number
): Promise<MoveJob> {
  const table = ACCOUNT_TABLES[index]!
  const after = (job.key?.[0] as string | undefined) ?? null
  if (after === null) await q.run(dst, `DELETE FROM ${table} WHERE account_id = ?1`, job.accountId)
  const rows = await q.all(
    src,
    `SELECT * FROM ${table} WHERE account_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3`,
    job.accountId,
    after ?? '',
    MOVE_PAGE_ROWS
  )
  await writeRows(q, dst, table, rows)
  if (rows.length === MOVE_PAGE_ROWS) return { ...job, key: [rows.at(-1)!.id] }
  return { ...job, accountTable: index + 1, key: null }
}

/**
 * The job with the zones of the entries' `replace` rows queued to have their records copied again
 * (MoveJob.recopy): a transfer that replaced a zone's records whole names none of them, so
 * applying its entry alone would leave the destination with the records from before it. A zone
 * already queued is not queued twice (the queue is worked off before the next log page is read,
 * so one under way is never queued again meanwhile).
 */
export function queueRecopies(job: MoveJob, entries: Row[]): MoveJob {
  const queued = job.recopy ?? { zones: [], cleared: false, key: null }
  const zones = new Set(queued.zones)
  for (const e of entries) if (e.op === 'replace') zones.add(e.zone_id as string)
  if (zones.size === queued.zones.length) return job
  return { ...job, recopy: { ...queued, zones: [...zones] } }
}

/**
 * One unit of copying the first queued zone's records again: the destination's records of the
 * zone deleted in chunks, then the source's copied in keyset pages. Changes the source commits
 * meanwhile are in its log after the job's mark, and the catch-up applies them afterwards.
 */
export async function recopyUnit(
  q: Queries,
  src: D1Database,
  dst: D1Database,
  job: MoveJob
): Promise<MoveJob> {
  const { zones, cleared, key } = job.recopy!
  const zone = zones[0]!
  if (!cleared) {
    const r = await q.run(
      dst,
      `DELETE FROM dns_records WHERE rowid IN (SELECT rowid FROM dns_records WHERE zone_id = ?1 LIMIT ?2)`,
      zone,
      CLEANUP_CHUNK
    )
    if (r.meta.changes === CLEANUP_CHUNK) return job
    return { ...job, recopy: { zones, cleared: true, key: null } }
  }
  const page = await keysetPage(q, src, RECORDS_KEYSET, zone, key, MOVE_PAGE_ROWS)
  await writeRows(q, dst, 'dns_records', page.rows)
  if (page.last) return { ...job, recopy: { zones, cleared, key: page.last } }
  const rest = zones.slice(1)
  const { recopy: _done, ...without } = job
  const recopies = (job.recopies ?? 0) + 1
  return rest.length > 0
    ? { ...job, recopies, recopy: { zones: rest, cleared: false, key: null } }
    : { ...without, recopies }
}
