/**
 * @module Zone-file import and export (Cloudflare contract, see docs/import-export.md):
 *   POST /zones/:zone_id/dns_records/import  multipart `file` (+ `proxied`) → { recs_added, total_records_parsed }
 *   GET  /zones/:zone_id/dns_records/export  → text/plain BIND master file, streamed page by page
 * An import is all or nothing: any error names its line and changes nothing. Its records are staged
 * in bounded chunks and committed by one transaction of bounded statements (zonefile-bridge/staged-import.ts).
 */
import { parseZoneFile, uncommentApexCname, ZoneFileError } from '@edgedns/zonefile'
import { eq } from 'drizzle-orm'
import { Hono, type Context } from 'hono'
import { announceCommit } from '../commit/zone-change.ts'
import { accounts } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { queryParam } from '../http/query.ts'
import { nowIso } from '../http/ids.ts'
import { zoneFor } from '../zones/access.ts'
import { assertRecordsWritable } from '../zones/read-only.ts'
import type { ZoneRow } from '../zones/model.ts'
import { atLine, mapEntries, type ImportItem } from '../zonefile-bridge/entries.ts'
import { existingKeys } from '../zonefile-bridge/existing.ts'
import {
  decodeExportCursor,
  encodeExportCursor,
  EXPORT_PAGE,
  exportPage,
  exportZoneStream,
} from '../zonefile-bridge/export-zone.ts'
import { intParam } from '../records/list-query.ts'
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_LINE_CHARS,
  IMPORT_MAX_LINE_TOKENS,
  IMPORT_MAX_RECORDS,
  positiveInt,
} from '../zonefile-bridge/limits.ts'
import { readImportForm } from '../zonefile-bridge/multipart.ts'
import { importRecords } from '../zonefile-bridge/staged-import.ts'
import { zoneDefaultNameServers } from '../zones/apex-ns.ts'

export const importExport = new Hono<AppEnv>()

const NEXT_CURSOR_HEADER = 'x-edgedns-next-cursor'
const MAX_MESSAGES = 100
/** SOA and apex NS lines are parsed but never imported: allow a few beyond the record limit. */
const PARSE_SLACK = 1000

async function importLimit(c: Context<AppEnv>, zone: ZoneRow): Promise<number> {
  const row = await c.var.db
    .select({ max: accounts.maxBatchChanges })
    .from(accounts)
    .where(eq(accounts.id, zone.accountId))
    .get()
  return row?.max ?? positiveInt(c.env.MAX_IMPORT_RECORDS, IMPORT_MAX_RECORDS)
}

/**
 * Parses the file, reading at most `limit` records (and PARSE_SLACK lines beyond them); an apex
 * CNAME the export wrote as a comment line is read as the record it is (@edgedns/zonefile apex-cname).
 */
function parse(text: string, origin: string, limit: number) {
  try {
    return parseZoneFile(uncommentApexCname(text, origin), {
      origin,
      defaultTtl: 1,
      maxRecords: limit + PARSE_SLACK,
      maxLineChars: IMPORT_MAX_LINE_CHARS,
      maxLineTokens: IMPORT_MAX_LINE_TOKENS,
    })
  } catch (e) {
    if (!(e instanceof ZoneFileError)) throw e
    if (e.reason.startsWith('too many records')) {
      // The parser's own bound includes the slack; the limit that applies is `limit`.
      throw ApiError.badRequest(
        Codes.batchTooLarge,
        `The zone file has more records than this account may import at once: the limit for this account is ${limit} records per import (reading stopped at line ${e.line}).`
      )
    }
    throw ApiError.badRequest(Codes.importSyntax, `Zone file syntax error at ${e.message}`)
  }
}

/** Batch errors point at `/posts/<i>`: translate that to the item's line in the file. */
function blameLine(e: unknown, items: ImportItem[]): unknown {
  if (!(e instanceof ApiError)) return e
  const m = /^\/posts\/(\d+)$/.exec(e.extra.pointer ?? '')
  const item = m ? items[Number(m[1])] : undefined
  return item ? atLine(item.line, e) : e
}

importExport.post('/import', async (c) => {
  const started = Date.now()
  const zone = await zoneFor(c, 'dns:edit')
  assertRecordsWritable(zone)
  const form = await readImportForm(c, positiveInt(c.env.MAX_IMPORT_BYTES, IMPORT_MAX_BYTES))
  const limit = await importLimit(c, zone)
  const entries = parse(form.text, zone.name, limit)
  const ctx = { zoneId: zone.id, zoneName: zone.name, now: nowIso() }
  const mapped = mapEntries(
    entries,
    { name: zone.name, defaultNameServers: zoneDefaultNameServers(zone) },
    form.proxied,
    ctx
  )
  const existing = await existingKeys(
    c.var.zoneDb,
    zone.id,
    mapped.items.map((i) => i.fields.name!)
  )
  const items = mapped.items.filter((i) => !existing.has(i.key))
  const messages = [
    ...mapped.skipped.map((s) => `line ${s.line}: skipped, ${s.reason}`),
    ...mapped.items
      .filter((i) => existing.has(i.key))
      .map((i) => `line ${i.line}: skipped, an identical ${i.type} record already exists`),
  ]
  if (items.length > limit) {
    throw ApiError.badRequest(
      Codes.batchTooLarge,
      `This import adds ${items.length} records; the limit for this account is ${limit} records per import.`
    )
  }
  let seq = zone.changeSeq
  let changed = 0
  if (items.length > 0) {
    const target = { zoneId: zone.id, zoneName: zone.name, tokenId: c.var.principal.tokenId }
    const imported = await importRecords(
      c.var.zoneDb,
      target,
      items.map((i) => i.fields)
    ).catch((e: unknown) => {
      throw blameLine(e, items)
    })
    seq = imported.seq
    changed = imported.created
  }
  announceCommit(c, zone.id, seq, changed)
  const byType: Record<string, number> = {}
  for (const i of items) byType[i.type] = (byType[i.type] ?? 0) + 1
  const ended = Date.now()
  return c.json({
    success: true,
    errors: [],
    messages: messages
      .slice(0, MAX_MESSAGES)
      .map((message) => ({ code: Codes.importSkipped, message })),
    result: {
      recs_added: items.length,
      recs_added_by_type: byType,
      total_records_parsed: entries.length,
    },
    timing: {
      start_time: new Date(started).toISOString(),
      end_time: new Date(ended).toISOString(),
      process_time: (ended - started) / 1000,
    },
  })
})

/**
 * The whole file as a stream by default. With `per_page` (1–10,000) and/or `cursor`, one page of it:
 * the first page carries the header, SOA and apex NS; `x-edgedns-next-cursor` names the next page
 * and is absent on the last one.
 */
importExport.get('/export', async (c) => {
  const zone = await zoneFor(c, 'dns:read')
  const headers = {
    'content-type': 'text/plain; charset=utf-8',
    'content-disposition': `attachment; filename="${zone.name}.txt"`,
  }
  const cursor = queryParam(c, 'cursor')
  const perPage = queryParam(c, 'per_page')
  if (cursor !== undefined || perPage !== undefined) {
    const after = cursor === undefined || cursor === '' ? null : decodeExportCursor(cursor)
    if (after === null && cursor)
      throw ApiError.badRequest(Codes.invalidRequest, 'cursor is not a cursor this export returned')
    const page = await exportPage(
      c.var.zoneDb,
      zone,
      after,
      intParam(perPage, 'per_page', EXPORT_PAGE, 1, EXPORT_PAGE)
    )
    return c.body(
      page.text,
      200,
      page.next ? { ...headers, [NEXT_CURSOR_HEADER]: encodeExportCursor(page.next) } : headers
    )
  }
  return c.body(exportZoneStream(c.var.zoneDb, zone), 200, headers)
})
