/**
 * @module DNS records endpoints: list, get, create, overwrite, edit, delete, batch.
 * Every write goes through the batch engine, so single-record and batch writes share one path.
 */
import { Hono, type Context } from 'hono'
import { applyBatch, type Applied } from '../batch/apply.ts'
import { batchRequestSchema, countChanges, type BatchRequest } from '../batch/request.ts'
import { announceCommit } from '../commit/zone-change.ts'
import { accounts } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { queryParam } from '../http/query.ts'
import { parseWith, readJson } from '../http/body.ts'
import { ok, okList, resultInfo } from '../http/envelope.ts'
import { isId } from '../http/ids.ts'
import { recordFieldsSchema } from '../records/input.ts'
import { MAX_OFFSET, parseListQuery } from '../records/list-query.ts'
import { fromRow, toApi, type DnsRecord, type RecordRow } from '../records/model.ts'
import { shadowMeta, withShadowMeta } from '../records/shadow-meta.ts'
import { includeShadowMetadata } from '../records/shadow-query.ts'
import { zoneFor } from '../zones/access.ts'
import { assertRecordsWritable } from '../zones/read-only.ts'
import type { ZoneRow } from '../zones/model.ts'
import { eq } from 'drizzle-orm'

/** Changes per batch when neither the account nor `MAX_BATCH_CHANGES` sets a limit. */
export const DEFAULT_MAX_BATCH_CHANGES = 3500

export const records = new Hono<AppEnv>()

async function run(
  c: Context<AppEnv>,
  zone: ZoneRow,
  req: BatchRequest,
  pointers: boolean,
  startedAt: number
): Promise<Applied> {
  const applied = await applyBatch(
    c.var.zoneDb,
    { zoneId: zone.id, zoneName: zone.name, tokenId: c.var.principal.tokenId },
    req,
    pointers
  )
  const t = applied.timings
  const total = performance.now() - startedAt
  c.header(
    'server-timing',
    `load;dur=${t.load.toFixed(1)}, plan;dur=${t.plan.toFixed(1)}, write;dur=${t.write.toFixed(1)}, total;dur=${total.toFixed(1)}, attempts;desc="${applied.attempts}"`
  )
  announceCommit(
    c,
    zone.id,
    applied.seq,
    applied.plan.changes.length,
    applied.plan.changes.flatMap((ch) => [ch.before?.name, ch.after?.name])
  )
  return applied
}

function recordId(c: Context<AppEnv>): string {
  const id = c.req.param('record_id') ?? ''
  if (!isId(id)) throw ApiError.badRequest(Codes.invalidRecordId, 'Invalid dns record identifier')
  return id
}

async function batchLimit(c: Context<AppEnv>, zone: ZoneRow): Promise<number> {
  const row = await c.var.db
    .select({ max: accounts.maxBatchChanges })
    .from(accounts)
    .where(eq(accounts.id, zone.accountId))
    .get()
  return row?.max ?? Number(c.env.MAX_BATCH_CHANGES ?? DEFAULT_MAX_BATCH_CHANGES)
}

/** `include_shadow_metadata=true` on the request: read before any write, so a bad value changes nothing. */
function wantsShadowMeta(c: Context<AppEnv>): boolean {
  return includeShadowMetadata(queryParam(c, 'include_shadow_metadata'))
}

/** The API form of records, with their shadow metadata when `wanted`. */
async function answer(
  c: Context<AppEnv>,
  zone: ZoneRow,
  wanted: boolean,
  records: readonly DnsRecord[]
): Promise<Record<string, unknown>[]> {
  const metas = wanted ? await shadowMeta(c.var.zoneDb, zone, records) : null
  return records.map((r) => withShadowMeta(toApi(r), metas))
}

records.get('/', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  const q = parseListQuery((k) => c.req.queries(k) ?? [], zone)
  const offset = (q.page - 1) * q.perPage
  if (offset > MAX_OFFSET) {
    const n = await c.var.zoneDb
      .prepare(`SELECT count(*) AS n FROM dns_records WHERE ${q.where}`)
      .bind(...q.params)
      .first<number>('n')
    return okList(c, [], resultInfo(q.page, q.perPage, 0, n ?? 0))
  }
  const [rows, count] = await c.var.zoneDb.batch([
    c.var.zoneDb
      .prepare(
        `SELECT * FROM dns_records WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${q.perPage} OFFSET ${offset}`
      )
      .bind(...q.params),
    c.var.zoneDb
      .prepare(`SELECT count(*) AS n FROM dns_records WHERE ${q.where}`)
      .bind(...q.params),
  ])
  const page = (rows!.results as unknown as RecordRow[]).map(fromRow)
  const result = await answer(c, zone, q.shadowMeta, page)
  const total = (count!.results[0] as { n: number }).n
  return okList(c, result, resultInfo(q.page, q.perPage, result.length, total))
})

records.get('/:record_id{[^/]+}', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  const id = recordId(c)
  const meta = wantsShadowMeta(c)
  const row = await c.var.zoneDb
    .prepare('SELECT * FROM dns_records WHERE zone_id = ?1 AND id = ?2')
    .bind(zone.id, id)
    .first<RecordRow>()
  if (!row) throw new ApiError(404, Codes.recordNotFound, 'Record does not exist.')
  return ok(c, (await answer(c, zone, meta, [fromRow(row)]))[0])
})

records.post('/', async (c) => {
  const startedAt = performance.now()
  const zone = await zoneFor(c, 'dns:edit')
  assertRecordsWritable(zone)
  const meta = wantsShadowMeta(c)
  const body = parseWith(recordFieldsSchema, await readJson(c))
  const { plan } = await run(c, zone, { posts: [body] }, false, startedAt)
  return ok(c, (await answer(c, zone, meta, [plan.result.posts[0]!]))[0])
})

records.put('/:record_id{[^/]+}', async (c) => {
  const startedAt = performance.now()
  const zone = await zoneFor(c, 'dns:edit')
  assertRecordsWritable(zone)
  const id = recordId(c)
  const meta = wantsShadowMeta(c)
  const body = parseWith(recordFieldsSchema, await readJson(c))
  const { plan } = await run(c, zone, { puts: [{ ...body, id }] }, false, startedAt)
  return ok(c, (await answer(c, zone, meta, [plan.result.puts[0]!]))[0])
})

records.patch('/:record_id{[^/]+}', async (c) => {
  const startedAt = performance.now()
  const zone = await zoneFor(c, 'dns:edit')
  assertRecordsWritable(zone)
  const id = recordId(c)
  const meta = wantsShadowMeta(c)
  const body = parseWith(recordFieldsSchema, await readJson(c))
  const { plan } = await run(c, zone, { patches: [{ ...body, id }] }, false, startedAt)
  return ok(c, (await answer(c, zone, meta, [plan.result.patches[0]!]))[0])
})

records.delete('/:record_id{[^/]+}', async (c) => {
  const startedAt = performance.now()
  const zone = await zoneFor(c, 'dns:edit')
  assertRecordsWritable(zone)
  const id = recordId(c)
  await run(c, zone, { deletes: [{ id }] }, false, startedAt)
  return ok(c, { id })
})

records.post('/batch', async (c) => {
  const startedAt = performance.now()
  const zone = await zoneFor(c, 'dns:edit')
  assertRecordsWritable(zone)
  const meta = wantsShadowMeta(c)
  const body = parseWith(batchRequestSchema, await readJson(c))
  const n = countChanges(body)
  const limit = await batchLimit(c, zone)
  if (n > limit) {
    throw ApiError.badRequest(
      Codes.batchTooLarge,
      `This batch has ${n} changes; the limit for this account is ${limit} changes per batch. Split it into several batches.`
    )
  }
  const { plan } = await run(c, zone, body, true, startedAt)
  const r = plan.result
  // Deleted records are answered as they were, without metadata: they no longer shadow or are shadowed.
  const metas = meta
    ? await shadowMeta(c.var.zoneDb, zone, [...r.patches, ...r.puts, ...r.posts])
    : null
  const form = (rec: DnsRecord) => withShadowMeta(toApi(rec), metas)
  return ok(c, {
    ...(body.deletes ? { deletes: r.deletes.map(toApi) } : {}),
    ...(body.patches ? { patches: r.patches.map(form) } : {}),
    ...(body.puts ? { puts: r.puts.map(form) } : {}),
    ...(body.posts ? { posts: r.posts.map(form) } : {}),
  })
})
