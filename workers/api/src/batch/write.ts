/**
 * @module Turns a plan into one D1 batch of a handful of bulk statements: the version guard,
 * deletes, in-place updates, inserts, and the change log (transactional outbox and audit trail in one),
 * the guard and the log rows coming from the commit module.
 */
import { RECORD_COLUMNS, reverseName, type DnsRecord } from '../records/model.ts'
import { jsonChunks } from '../db/json-chunks.ts'
import type { Change } from './plan.ts'
import {
  guardStatement,
  INSERT_RECORD_CHANGES,
  type GuardContext,
  type RecordLogRow,
} from '../commit/zone-change.ts'

export interface WriteContext extends GuardContext {
  tokenId: string
}

// jsonb_each hands each row to `->>` as a binary JSON value, so no field is parsed from text again.
// zone_id and modified_on are the same for every row of a batch, so they are bound once.
const ROW_COLUMNS = RECORD_COLUMNS.filter((c) => c !== 'zone_id' && c !== 'modified_on')
const INSERT_RECORDS = `INSERT INTO dns_records (zone_id, modified_on, ${ROW_COLUMNS.join(', ')})
  SELECT ?1, ?2, ${ROW_COLUMNS.map((_, i) => `value ->> ${i}`).join(', ')} FROM jsonb_each(?3)`

/** Values of one record in ROW_COLUMNS order (toRowValues without zone_id and modified_on, built directly: 100k rows a batch). */
export function rowValues(r: DnsRecord): unknown[] {
  return [
    r.id,
    r.name,
    reverseName(r.name),
    r.type,
    r.content,
    r.data === null ? null : JSON.stringify(r.data),
    r.priority,
    r.ttl,
    r.proxied ? 1 : 0,
    r.comment,
    JSON.stringify(r.tags),
    JSON.stringify(r.settings),
    r.createdOn,
    r.commentModifiedOn,
    r.tagsModifiedOn,
  ]
}

/** Columns an UPDATE may rewrite: all but the key, the zone and the creation time. */
const UPDATE_COLUMNS = ROW_COLUMNS.filter((c) => c !== 'id' && c !== 'created_on')
type UpdateColumn = (typeof UPDATE_COLUMNS)[number]
/** The columns of the unique identity index and the (zone, type, name) index. */
const INDEXED_COLUMNS = new Set<string>(['name', 'name_rev', 'type', 'content', 'priority'])
/** The columns of the (zone, type, name) index, plus `name_rev` which follows `name`. */
const NAME_TYPE_COLUMNS = new Set<string>(['name', 'name_rev', 'type'])
/** Where each update column sits in rowValues. */
const ROW_INDEX = new Map(UPDATE_COLUMNS.map((c) => [c, ROW_COLUMNS.indexOf(c)]))

/**
 * Rewrites rows in place from a JSON chunk of `[id, ...values of columns]` arrays. SQLite updates
 * only the indexes holding a column the SET names, so each route names as few as it can: an
 * update of TTL, proxied, comment or tags touches no index; one of content or priority touches the
 * identity index only. Within a route the SET names only the columns that some update of the
 * batch really changes (a batch of content edits sets content alone): every other column is
 * neither extracted from the JSON nor compared. The (id) lookup goes through the primary key
 * (`+zone_id` keeps it there).
 */
export function updateSql(columns: readonly UpdateColumn[]): string {
  const set = columns.map((c, i) => `, ${c} = u.v ->> ${i + 1}`)
  return `UPDATE dns_records SET modified_on = ?2${set.join('')}
  FROM (SELECT value ->> 0 AS k, value AS v FROM jsonb_each(?3)) AS u
  WHERE dns_records.id = u.k AND +dns_records.zone_id = ?1`
}
/** Each route's widest statement (every column it may set). */
export const UPDATE_RECORDS = updateSql(UPDATE_COLUMNS)
export const UPDATE_IDENTITY = updateSql(UPDATE_COLUMNS.filter((c) => !NAME_TYPE_COLUMNS.has(c)))
export const UPDATE_UNINDEXED = updateSql(UPDATE_COLUMNS.filter((c) => !INDEXED_COLUMNS.has(c)))

const json = (v: unknown): string | null => (v === null ? null : JSON.stringify(v))
const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i])

/** Whether a column's stored value differs between two versions of a record (as rowValues would write them). */
const DIFFERS: Record<UpdateColumn, (a: DnsRecord, b: DnsRecord) => boolean> = {
  name: (a, b) => a.name !== b.name,
  name_rev: (a, b) => a.name !== b.name,
  type: (a, b) => a.type !== b.type,
  content: (a, b) => a.content !== b.content,
  data: (a, b) => (a.data !== b.data || a.data !== null) && json(a.data) !== json(b.data),
  priority: (a, b) => a.priority !== b.priority,
  ttl: (a, b) => a.ttl !== b.ttl,
  proxied: (a, b) => a.proxied !== b.proxied,
  comment: (a, b) => a.comment !== b.comment,
  tags: (a, b) => !sameList(a.tags, b.tags),
  settings: (a, b) => json(a.settings) !== json(b.settings),
  comment_modified_on: (a, b) => a.commentModifiedOn !== b.commentModifiedOn,
  tags_modified_on: (a, b) => a.tagsModifiedOn !== b.tagsModifiedOn,
}

/** The columns whose value differs between before and after in at least one of the updates, in UPDATE_COLUMNS order. */
export function changedColumns(updates: readonly Change[]): UpdateColumn[] {
  const unchanged = new Set<UpdateColumn>(UPDATE_COLUMNS)
  for (const c of updates) {
    if (unchanged.size === 0) break
    for (const col of unchanged) if (DIFFERS[col](c.before!, c.after!)) unchanged.delete(col)
  }
  return UPDATE_COLUMNS.filter((c) => !unchanged.has(c))
}

/** The UPDATE statements of one route: only the changed columns are set and bound. */
function updateStatements(
  db: D1Database,
  ctx: WriteContext,
  updates: readonly Change[]
): D1PreparedStatement[] {
  if (updates.length === 0) return []
  const columns = changedColumns(updates)
  const indexes = columns.map((c) => ROW_INDEX.get(c)!)
  const sql = updateSql(columns)
  const rows = updates.map((c) => {
    const values = rowValues(c.after!)
    return [c.recordId, ...indexes.map((k) => values[k])]
  })
  return jsonChunks(rows).map((chunk) => db.prepare(sql).bind(ctx.zoneId, ctx.now, chunk))
}

/** The key of the `dns_records_identity` unique index (zone aside), exactly as the database compares it. */
function dbIdentity(r: DnsRecord): string {
  return `${r.name}\t${r.type}\t${r.content}\t${r.priority ?? -1}`
}

export interface UpdateRoutes {
  /** Updates whose indexed columns do not change. */
  unindexed: Change[]
  /** Updates of content or priority at the same name and type: the identity index only. */
  identity: Change[]
  /** Updates that rename a record or change its type, every index included. */
  inPlace: Change[]
  /** Updates deleted and re-inserted: their new identity is, until the UPDATE runs, another updated record's. */
  reinsert: Change[]
}

/**
 * SQLite checks unique indexes row by row, so an in-place UPDATE fails when a record takes over
 * the identity another updated record still holds (two records swapping content). Those, and
 * only those, go through delete + insert: deletes run first and free every identity they held,
 * in-place updates then never meet an identity that is not theirs (the plan checked the final
 * state is unique), and inserts run last.
 */
export function routeUpdates(changes: readonly Change[]): UpdateRoutes {
  const updates = changes.filter((c) => c.op === 'update')
  const holders = new Map<string, string>()
  for (const c of updates) holders.set(dbIdentity(c.before!), c.recordId)
  const routes: UpdateRoutes = { unindexed: [], identity: [], inPlace: [], reinsert: [] }
  for (const c of updates) {
    const before = c.before!
    const after = c.after!
    const newIdentity = dbIdentity(after)
    const holder = holders.get(newIdentity)
    if (holder !== undefined && holder !== c.recordId) routes.reinsert.push(c)
    else if (newIdentity === dbIdentity(before)) routes.unindexed.push(c)
    else if (after.name === before.name && after.type === before.type) routes.identity.push(c)
    else routes.inPlace.push(c)
  }
  return routes
}

export function writeStatements(
  db: D1Database,
  ctx: WriteContext,
  changes: Change[]
): D1PreparedStatement[] {
  const stmts = [guardStatement(db, ctx, changes.length)]
  // The change log goes first: it reads each before-image from the row the later statements change.
  const base = ctx.guard.changeSeq
  const log = changes.map((c, i): RecordLogRow => [
    base + i + 1,
    c.op,
    c.recordId,
    c.after?.name ?? null,
    (c.after ?? c.before)!.type,
  ])
  for (const chunk of jsonChunks(log))
    stmts.push(db.prepare(INSERT_RECORD_CHANGES).bind(ctx.zoneId, ctx.tokenId, ctx.now, chunk))
  const routes = routeUpdates(changes)
  const removed = [...changes.filter((c) => c.op === 'delete'), ...routes.reinsert].map(
    (c) => c.recordId
  )
  for (const chunk of jsonChunks(removed)) {
    // `+zone_id`: without the unary plus SQLite walks the zone's identity index instead of the id key.
    stmts.push(
      db
        .prepare(
          'DELETE FROM dns_records WHERE id IN (SELECT value FROM json_each(?2)) AND +zone_id = ?1'
        )
        .bind(ctx.zoneId, chunk)
    )
  }
  for (const route of [routes.unindexed, routes.identity, routes.inPlace])
    stmts.push(...updateStatements(db, ctx, route))
  const inserted = [...routes.reinsert, ...changes.filter((c) => c.op === 'create')]
  for (const chunk of jsonChunks(inserted.map((c) => rowValues(c.after!))))
    stmts.push(db.prepare(INSERT_RECORDS).bind(ctx.zoneId, ctx.now, chunk))

  return stmts
}
