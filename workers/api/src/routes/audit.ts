/**
 * @module GET /zones/{id}/dns_records/audit: who changed which record, with before/after, newest first.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { okList, resultInfo } from '../http/envelope.ts'
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
  after: string | null
  created_on: string
}

function recordFromValues(json: string | null): Record<string, unknown> | null {
  if (json === null) return null
  const values = JSON.parse(json) as unknown[]
  const row = Object.fromEntries(RECORD_COLUMNS.map((c, i) => [c, values[i]])) as unknown as RecordRow
  return toApi(fromRow(row))
}

audit.get('/', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  const page = intParam(c.req.query('page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const perPage = intParam(c.req.query('per_page'), 'per_page', 100, 1, 1000)
  const recordId = c.req.query('record_id')
  const filter = recordId ? 'AND record_id = ?2' : ''
  const binds = recordId ? [zone.id, recordId] : [zone.id]
  const [rows, count] = await c.env.DB.batch([
    c.env.DB.prepare(
      `SELECT seq, op, record_id, token_id, before, after, created_on FROM change_log
       WHERE zone_id = ?1 AND op IN ('create', 'update', 'delete') ${filter}
       ORDER BY seq DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`
    ).bind(...binds),
    c.env.DB.prepare(`SELECT count(*) AS n FROM change_log WHERE zone_id = ?1 AND op IN ('create', 'update', 'delete') ${filter}`).bind(...binds),
  ])
  const result = (rows!.results as unknown as ChangeRow[]).map((r) => ({
    seq: r.seq,
    action: r.op,
    record_id: r.record_id,
    token_id: r.token_id,
    when: r.created_on,
    before: recordFromValues(r.before),
    after: recordFromValues(r.after),
  }))
  return okList(c, result, resultInfo(page, perPage, result.length, (count!.results[0] as { n: number }).n))
})
