/**
 * @module GET /zones/{id}/dns_records/audit: who changed which record, with before/after, newest first.
 * The change log stores only `before`; `after` is the next change's `before`, or the live record.
 */
import { Hono } from 'hono'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { queryParam } from '../http/query.ts'
import { okList, resultInfo } from '../http/envelope.ts'
import { isId } from '../http/ids.ts'
import { intParam } from '../records/list-query.ts'
import { fromRow, RECORD_COLUMNS, toApi, type RecordRow } from '../records/model.ts'
import { zoneFor } from '../zones/access.ts'

export const audit = new Hono<AppEnv>()

interface ChangeRow {
  seq: number
  op: string
  record_id: string | null
  token_id: string | null
  before: string | null
  created_on: string
}

function recordFromValues(json: string | null): Record<string, unknown> | null {
  if (json === null) return null
  const values = JSON.parse(json) as unknown[]
  const row = Object.fromEntries(
    RECORD_COLUMNS.map((c, i) => [c, values[i]])
  ) as unknown as RecordRow
  return toApi(fromRow(row))
}

/** For each change on the page: the `before` of the next change to the same record, or its live row. */
async function afterStates(
  db: D1Database,
  zoneId: string,
  page: ChangeRow[]
): Promise<Map<number, Record<string, unknown> | null>> {
  const ids = [...new Set(page.flatMap((r) => (r.record_id ? [r.record_id] : [])))]
  const minSeq = Math.min(...page.map((r) => r.seq))
  const [later, live] = await db.batch([
    db
      .prepare(
        `SELECT seq, record_id, before FROM change_log
         WHERE zone_id = ?1 AND seq > ?2 AND record_id IN (SELECT value FROM json_each(?3)) ORDER BY seq`
      )
      .bind(zoneId, minSeq, JSON.stringify(ids)),
    db
      .prepare(
        'SELECT * FROM dns_records WHERE id IN (SELECT value FROM json_each(?2)) AND +zone_id = ?1'
      )
      .bind(zoneId, JSON.stringify(ids)),
  ])
  const laterByRecord = new Map<string, { seq: number; before: string | null }[]>()
  for (const r of later!.results as { seq: number; record_id: string; before: string | null }[]) {
    const list = laterByRecord.get(r.record_id) ?? []
    list.push(r)
    laterByRecord.set(r.record_id, list)
  }
  const liveById = new Map((live!.results as unknown as RecordRow[]).map((r) => [r.id, r]))
  const out = new Map<number, Record<string, unknown> | null>()
  for (const r of page) {
    if (r.op === 'delete' || r.record_id === null) {
      out.set(r.seq, null)
      continue
    }
    const next = laterByRecord.get(r.record_id)?.find((l) => l.seq > r.seq)
    if (next) out.set(r.seq, recordFromValues(next.before))
    else {
      const row = liveById.get(r.record_id)
      out.set(r.seq, row ? toApi(fromRow(row)) : null)
    }
  }
  return out
}

audit.get('/', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  const page = intParam(queryParam(c, 'page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const perPage = intParam(queryParam(c, 'per_page'), 'per_page', 100, 1, 1000)
  const recordId = queryParam(c, 'record_id')
  // A malformed id is refused as the single-record routes refuse it, not answered with no changes.
  if (recordId && !isId(recordId))
    throw ApiError.badRequest(Codes.invalidRecordId, 'Invalid dns record identifier')
  const filter = recordId ? 'AND record_id = ?2' : ''
  const binds = recordId ? [zone.id, recordId] : [zone.id]
  const [rows, count] = await c.var.zoneDb.batch([
    c.var.zoneDb
      .prepare(
        `SELECT seq, op, record_id, token_id, before, created_on FROM change_log
       WHERE zone_id = ?1 AND op IN ('create', 'update', 'delete') ${filter}
       ORDER BY seq DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`
      )
      .bind(...binds),
    c.var.zoneDb
      .prepare(
        `SELECT count(*) AS n FROM change_log WHERE zone_id = ?1 AND op IN ('create', 'update', 'delete') ${filter}`
      )
      .bind(...binds),
  ])
  const page_ = rows!.results as unknown as ChangeRow[]
  const after = page_.length > 0 ? await afterStates(c.var.zoneDb, zone.id, page_) : new Map()
  const result = page_.map((r) => ({
    seq: r.seq,
    action: r.op,
    record_id: r.record_id,
    token_id: r.token_id,
    when: r.created_on,
    before: recordFromValues(r.before),
    after: after.get(r.seq) ?? null,
  }))
  return okList(
    c,
    result,
    resultInfo(page, perPage, result.length, (count!.results[0] as { n: number }).n)
  )
})
