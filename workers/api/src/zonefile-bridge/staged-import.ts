/**
 * @module Writes a zone-file import of any size (up to the import cap) all or nothing, in bounded
 * pieces:
 *
 * 1. Plan: the zone's records at the imported names are loaded once and the posts planned against
 *    them (every validation and conflict error, naming its item, comes before anything is written).
 * 2. Stage: the new rows go to `import_staging` in statements of at most ROWS_PER_STATEMENT rows,
 *    each its own small D1 call. Nothing reads that table: readers, batches and the builder see the
 *    zone exactly as before.
 * 3. Commit: ONE D1 batch (one transaction) of the zone's version guard, then for each range of
 *    ROWS_PER_STATEMENT staged rows an INSERT…SELECT into `change_log` and one into `dns_records`.
 *    No statement handles more rows than that, and none carries a large parameter (the data is
 *    already in the database), so each stays far below D1's per-query time and statement limits.
 *    A concurrent write to the zone makes the guard fail: the batch rolls back whole and the import
 *    is planned again (bounded attempts).
 * 4. Discard: the staged rows are deleted, range by range, after the commit or after any failure;
 *    rows of an import whose worker died are removed by the cron (discardAbandonedImports).
 */
import { ApiError, Codes } from '../http/api-error.ts'
import { nowIso, recordIdGenerator } from '../http/ids.ts'
import { loadForBatch } from '../batch/load.ts'
import { planBatch } from '../batch/plan.ts'
import type { BatchRequest } from '../batch/request.ts'
import { MAX_CHUNK_CHARS } from '../db/json-chunks.ts'
import { retryOnConflict } from '../commit/conflict-retry.ts'
import {
  commitZoneChange,
  guardStatement,
  stagedCreatesLogStatement,
  STAGED_RANGE,
  type ZoneGuard,
} from '../commit/zone-change.ts'
import { RECORD_COLUMNS, toRowValues } from '../records/model.ts'

/** Rows per staging, commit and discard statement. */
export const ROWS_PER_STATEMENT = 5000
/** Attempts when concurrent writes to the zone keep beating the commit. */
const MAX_IMPORT_ATTEMPTS = 4
/** Staged rows older than this belong to an import whose worker died: the cron removes them. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000

export interface ImportTarget {
  zoneId: string
  zoneName: string
  tokenId: string
}

export interface StagedImportOptions {
  rowsPerStatement?: number
  /** Called after each staged chunk (tests: inject a failure, or look at the zone mid-import). */
  afterStagedChunk?: (chunk: number) => Promise<void> | void
}

export interface ImportOutcome {
  /** The change-log sequence the import committed up to (the zone's own when nothing was new). */
  seq: number
  created: number
  attempts: number
}

const col = (name: (typeof RECORD_COLUMNS)[number]): number => RECORD_COLUMNS.indexOf(name)

const STAGE_ROWS = `INSERT INTO import_staging (import_id, ord, zone_id, row, created_on)
  SELECT ?1, ?2 + key, ?3, value, ?4 FROM json_each(?5)`

const COMMIT_RECORDS = `INSERT INTO dns_records (${RECORD_COLUMNS.join(', ')})
  SELECT ${RECORD_COLUMNS.map((c) => (c === 'zone_id' ? '?4' : `s.row ->> ${col(c)}`)).join(', ')}
  FROM import_staging AS s WHERE ${STAGED_RANGE} ORDER BY s.ord`

const DISCARD_RANGE = `DELETE FROM import_staging AS s WHERE ${STAGED_RANGE}`

function ranges(count: number, size: number): [number, number][] {
  const out: [number, number][] = []
  for (let lo = 0; lo < count; lo += size) out.push([lo, Math.min(count, lo + size) - 1])
  return out
}

/** Rows [from, to) as JSON arrays of at most MAX_CHUNK_CHARS characters, with the ord of each piece's first row. */
function rowPieces(rows: unknown[][], from: number, to: number): { first: number; json: string }[] {
  const pieces: { first: number; json: string }[] = []
  let parts: string[] = []
  let first = from
  let chars = 2
  for (let i = from; i < to; i++) {
    const s = JSON.stringify(rows[i])
    if (parts.length > 0 && chars + s.length + 1 > MAX_CHUNK_CHARS) {
      pieces.push({ first, json: `[${parts.join(',')}]` })
      parts = []
      first = i
      chars = 2
    }
    parts.push(s)
    chars += s.length + 1
  }
  if (parts.length > 0) pieces.push({ first, json: `[${parts.join(',')}]` })
  return pieces
}

async function stage(
  db: D1Database,
  importId: string,
  zoneId: string,
  now: string,
  rows: unknown[][],
  opts: StagedImportOptions
): Promise<void> {
  const size = opts.rowsPerStatement ?? ROWS_PER_STATEMENT
  let chunk = 0
  for (let lo = 0; lo < rows.length; lo += size) {
    // Within a range, JSON text is also cut under D1's string limit (each piece its own statement).
    for (const piece of rowPieces(rows, lo, Math.min(rows.length, lo + size))) {
      await db.prepare(STAGE_ROWS).bind(importId, piece.first, zoneId, now, piece.json).run()
    }
    await opts.afterStagedChunk?.(chunk++)
  }
}

function commitStatements(
  db: D1Database,
  importId: string,
  count: number,
  size: number,
  ctx: { target: ImportTarget; guard: ZoneGuard; now: string }
): D1PreparedStatement[] {
  const { target, guard, now } = ctx
  const stmts = [guardStatement(db, { zoneId: target.zoneId, guard, now }, count)]
  for (const [lo, hi] of ranges(count, size)) {
    stmts.push(
      stagedCreatesLogStatement(db, {
        importId,
        lo,
        hi,
        zoneId: target.zoneId,
        changeSeq: guard.changeSeq,
        tokenId: target.tokenId,
        now,
      })
    )
  }
  for (const [lo, hi] of ranges(count, size))
    stmts.push(db.prepare(COMMIT_RECORDS).bind(importId, lo, hi, target.zoneId))
  return stmts
}

/** Deletes an import's staged rows, a bounded range per statement. */
async function discard(
  db: D1Database,
  importId: string,
  count: number,
  size: number
): Promise<void> {
  const stmts = ranges(count, size).map(([lo, hi]) =>
    db.prepare(DISCARD_RANGE).bind(importId, lo, hi)
  )
  for (const stmt of stmts) await stmt.run()
}

/** Imports `posts` (new records only) into the zone, all or nothing. */
export async function importRecords(
  db: D1Database,
  target: ImportTarget,
  posts: BatchRequest['posts'],
  opts: StagedImportOptions = {}
): Promise<ImportOutcome> {
  const size = opts.rowsPerStatement ?? ROWS_PER_STATEMENT
  const req: BatchRequest = { posts }
  return retryOnConflict({ maxAttempts: MAX_IMPORT_ATTEMPTS, what: 'import' }, async (attempt) => {
    const loaded = await loadForBatch(db, target.zoneId, target.zoneName, req)
    if (!loaded) throw new ApiError(404, Codes.zoneNotFound, 'Zone not found')
    const now = nowIso()
    const plan = planBatch(req, loaded.records, {
      zoneId: target.zoneId,
      zoneName: target.zoneName,
      now,
      newId: recordIdGenerator(),
      pointers: true,
    })
    const rows = plan.changes.map((c) => toRowValues(c.after!))
    if (rows.length === 0) return { seq: loaded.guard.changeSeq, created: 0, attempts: attempt }
    const importId = crypto.randomUUID()
    try {
      await stage(db, importId, target.zoneId, now, rows, opts)
      await commitZoneChange(
        db,
        commitStatements(db, importId, rows.length, size, { target, guard: loaded.guard, now })
      )
      return { seq: loaded.guard.changeSeq + rows.length, created: rows.length, attempts: attempt }
    } finally {
      // Runs before a retry too. A failure here leaves invisible rows for the cron to remove.
      await discard(db, importId, rows.length, size).catch((e: unknown) =>
        console.warn('import: staged rows left for the cron', importId, e)
      )
    }
  })
}

/** Cron: removes staged rows of imports whose worker died (at most `limit` rows per call). */
export async function discardAbandonedImports(
  db: D1Database,
  now = Date.now(),
  limit = ROWS_PER_STATEMENT
): Promise<number> {
  const before = new Date(now - ABANDONED_AFTER_MS).toISOString()
  const res = await db
    .prepare(
      'DELETE FROM import_staging WHERE rowid IN (SELECT rowid FROM import_staging WHERE created_on < ?1 LIMIT ?2)'
    )
    .bind(before, limit)
    .run()
  return res.meta.changes ?? 0
}
