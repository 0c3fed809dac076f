/**
 * @module Writes a zone as a BIND master file: SOA from the zone's settings, the apex NS set as the
 * zone serves it (its stored apex NS records with the set's smallest TTL, else its default name
 * servers with `ns_ttl`: zones/apex-ns.ts), then every record in presentation form. Every record of
 * an RRset is written with the set's TTL, the smallest of its records' (automatic, TTL 1, counted
 * as AUTO_TTL_SECONDS), the TTL the edge serves the set with. Comments, tags, proxied and flatten_cname travel in `; <comment> cf_tags=...`;
 * A/AAAA/CNAME always carry `cf-proxied:true|false` so a re-import keeps their proxy status
 * whatever the form's `proxied` flag says. settings.ipv4_only/ipv6_only are not exported. A stored
 * record that cannot be written as valid presentation (a row an earlier, laxer parser accepted that
 * is invalid even when read as it stored it) is a comment line `; skipped: …` saying why, so the
 * file always imports.
 *
 * `exportZoneStream` writes the same file page by page, keyed on the records' identity index, so a
 * zone of any size is never held in memory: each page is in canonical DNS order, and pages follow
 * the stored reversed-name order (the same order, except where a label is another's prefix followed
 * by `-` or `*` and the two fall on different pages).
 */
import {
  AUTO_TTL_SECONDS,
  fqdn,
  PROXIABLE_TYPES,
  RecordError,
  toPresentation,
} from '@edgedns/records'
import { formatCfComment, serializeZoneFile, type SerializeRecord } from '@edgedns/zonefile'
import { fromRow, reverseName, type DnsRecord, type RecordRow } from '../records/model.ts'
import { APEX_NS_TTL_SQL, apexNsTtlOf, zoneDefaultNameServers } from '../zones/apex-ns.ts'
import { soaRdata, type ZoneRow } from '../zones/model.ts'

/** A stored TTL as served: 1 is automatic. */
const servedTtl = (ttl: number): number => (ttl === 1 ? AUTO_TTL_SECONDS : ttl)

function soaRecord(z: ZoneRow): SerializeRecord {
  return { name: z.name, ttl: z.soaTtl, type: 'SOA', rdata: soaRdata(z) }
}

function recordLine(r: DnsRecord): SerializeRecord {
  const comment = formatCfComment({
    comment: r.comment,
    tags: r.tags,
    proxied: PROXIABLE_TYPES.has(r.type) ? r.proxied : undefined,
    flattenCname: r.settings.flatten_cname === true,
  })
  const line: SerializeRecord = {
    name: r.name,
    ttl: servedTtl(r.ttl),
    type: r.type,
    rdata: '',
  }
  try {
    line.rdata = toPresentation(r)
  } catch (e) {
    // A row stored before a check it fails today, beyond repair: a comment line in its place.
    if (!(e instanceof RecordError)) throw e
    line.skipped = `${e.message} Edit or delete the record through the API.`
    return line
  }
  if (comment !== '') line.comment = comment
  return line
}

const isApexNs = (z: ZoneRow, r: { type: string; name: string }): boolean =>
  r.type === 'NS' && r.name === z.name

/**
 * The apex NS lines of the zone's default name servers, when it stores no apex NS record of its
 * own (`apexNsTtl` null: zones/apex-ns.ts); none when it does.
 */
function defaultNsLines(z: ZoneRow, apexNsTtl: number | null): SerializeRecord[] {
  if (apexNsTtl !== null) return []
  return zoneDefaultNameServers(z).map((host) => ({
    name: z.name,
    ttl: z.nsTtl,
    type: 'NS',
    rdata: fqdn(host),
  }))
}

const setKey = (name: string, type: string): string => `${type} ${name}`

/**
 * Gives every line of an RRset the set's TTL: the smallest of its records' as served, the TTL the
 * edge answers the set with (builder/values.ts nodeFromRows). BIND gives a set the TTL of its
 * first line, so lines with TTLs of their own would be read back with another TTL than the one
 * served. `whole` holds the TTLs of sets that reach beyond `lines` (a set split across pages),
 * read from the table. A line skipped as a comment keeps its TTL and does not count, as the
 * builder skips such a record.
 */
function withSetTtls(lines: SerializeRecord[], whole = new Map<string, number>()): void {
  const ttls = new Map(whole)
  for (const l of lines) {
    const key = setKey(l.name, l.type)
    if (l.skipped !== undefined || whole.has(key)) continue
    const ttl = ttls.get(key)
    if (ttl === undefined || l.ttl < ttl) ttls.set(key, l.ttl)
  }
  for (const l of lines) if (l.skipped === undefined) l.ttl = ttls.get(setKey(l.name, l.type))!
}

export function exportZone(z: ZoneRow, records: DnsRecord[], now = new Date()): string {
  const apexNs = records.filter((r) => isApexNs(z, r)).map((r) => servedTtl(r.ttl))
  const apexNsTtl = apexNs.length > 0 ? Math.min(...apexNs) : null
  const lines = records.map(recordLine)
  withSetTtls(lines)
  return serializeZoneFile({
    origin: z.name,
    header: `Zone ${z.name} exported ${now.toISOString()} by edgedns; serial ${z.serial}`,
    soa: soaRecord(z),
    records: [...defaultNsLines(z, apexNsTtl), ...lines],
  })
}

/** Records per page of a streamed export. */
export const EXPORT_PAGE = 10_000

/** Only what a zone-file line needs (ids and timestamps are not exported): less to carry per page. */
const EXPORT_COLUMNS =
  'name, name_rev, type, content, data, priority, ttl, proxied, comment, tags, settings'
type ExportRow = Pick<
  RecordRow,
  | 'name'
  | 'name_rev'
  | 'type'
  | 'content'
  | 'data'
  | 'priority'
  | 'ttl'
  | 'proxied'
  | 'comment'
  | 'tags'
  | 'settings'
>

const PAGE_SQL = `SELECT ${EXPORT_COLUMNS} FROM dns_records WHERE zone_id = ?1
    AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
  ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`

/**
 * The TTL of one stored RRset as served (as APEX_NS_TTL_SQL), through the identity index. A
 * record the export skips as a comment counts here, unlike within a page: only a set split across
 * pages is read so.
 */
const SET_TTL_SQL = `SELECT min(CASE ttl WHEN 1 THEN ${AUTO_TTL_SECONDS} ELSE ttl END) AS ttl
  FROM dns_records WHERE zone_id = ?1 AND name_rev = ?2 AND type = ?3`

/** Where a page starts: the identity key of the last record of the previous page. */
export type ExportKey = [nameRev: string, type: string, content: string, priority: number]

const FIRST_KEY: ExportKey = ['', '', '', -2]

/** Opaque page cursor of the paged export: the key, as base64url JSON. */
export function encodeExportCursor(key: ExportKey): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(key))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** The key a cursor names, or null when it is not one of ours. */
export function decodeExportCursor(cursor: string): ExportKey | null {
  try {
    const bin = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    const key = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)))
    ) as unknown
    if (!Array.isArray(key) || key.length !== 4) return null
    const [rev, type, content, priority] = key as unknown[]
    if (
      typeof rev !== 'string' ||
      typeof type !== 'string' ||
      typeof content !== 'string' ||
      !Number.isInteger(priority)
    )
      return null
    return [rev, type, content, priority as number]
  } catch {
    return null
  }
}

function exportRecord(r: ExportRow): DnsRecord {
  return fromRow({
    ...r,
    id: '',
    zone_id: '',
    created_on: '',
    modified_on: '',
    comment_modified_on: null,
    tags_modified_on: null,
  })
}

/** Lines of a zone-file fragment without the `$ORIGIN`/`$TTL` lines serializeZoneFile starts with. */
function bodyLines(origin: string, records: SerializeRecord[]): string {
  if (records.length === 0) return ''
  const text = serializeZoneFile({ origin, records })
  return text.slice(text.indexOf('\n', text.indexOf('\n') + 1) + 1)
}

/**
 * The TTLs of the page's sets that reach beyond it: its first, when the previous page ended inside
 * it, and its last, when the row after the page is of it too. Read whole from the table.
 */
async function splitSetTtls(
  db: D1Database,
  z: ZoneRow,
  after: ExportKey | null,
  results: ExportRow[],
  limit: number
): Promise<Map<string, number>> {
  const split: ExportRow[] = []
  const first = results[0]
  if (first && after !== null && first.name_rev === after[0] && first.type === after[1]) {
    split.push(first)
  }
  const last = results[limit - 1]
  const next = results[limit]
  if (last && next && next.name_rev === last.name_rev && next.type === last.type) split.push(last)
  const ttls = new Map<string, number>()
  if (split.length === 0) return ttls
  const reads = await db.batch(
    split.map((r) => db.prepare(SET_TTL_SQL).bind(z.id, r.name_rev, r.type))
  )
  split.forEach((r, k) => {
    const ttl = (reads[k]?.results[0] as { ttl: number | null } | undefined)?.ttl
    if (typeof ttl === 'number') ttls.set(setKey(r.name, r.type), ttl)
  })
  return ttls
}

export interface ExportPage {
  /** Zone-file text: the first page starts with the header, SOA and apex NS lines. */
  text: string
  /** Key of the next page; null after the last. */
  next: ExportKey | null
}

/**
 * One page of the zone file: up to `limit` records after `after` (null: the first page), read by key
 * on the identity index, so a page costs the same wherever it is in the zone.
 */
export async function exportPage(
  db: D1Database,
  z: ZoneRow,
  after: ExportKey | null,
  limit = EXPORT_PAGE,
  now = new Date()
): Promise<ExportPage> {
  // One row beyond the page tells whether another page follows. The first page is read with the
  // TTL of the zone's stored apex NS set (in one transaction), which also says whether it has one.
  const page = db.prepare(PAGE_SQL).bind(z.id, ...(after ?? FIRST_KEY), limit + 1)
  const apexTtl = db.prepare(APEX_NS_TTL_SQL).bind(z.id, reverseName(z.name))
  const [read, ttlRead] = after === null ? await db.batch([page, apexTtl]) : [await page.all()]
  const results = read!.results as ExportRow[]
  const rows = results.slice(0, limit)
  const apexNsTtl = after === null ? apexNsTtlOf(ttlRead) : null
  const whole = await splitSetTtls(db, z, after, results, limit)
  if (apexNsTtl !== null) whole.set(setKey(z.name, 'NS'), apexNsTtl)
  const lines = rows.map((r) => recordLine(exportRecord(r)))
  withSetTtls(lines, whole)
  const text =
    after === null
      ? serializeZoneFile({
          origin: z.name,
          header: `Zone ${z.name} exported ${now.toISOString()} by edgedns; serial ${z.serial}`,
          soa: soaRecord(z),
          records: [...defaultNsLines(z, apexNsTtl), ...lines],
        })
      : bodyLines(z.name, lines)
  const last = rows[rows.length - 1]
  return {
    text,
    next:
      results.length <= limit || !last
        ? null
        : [last.name_rev, last.type, last.content, last.priority ?? -1],
  }
}

/** The whole zone file, one page at a time: never more than a page of records in memory. */
export function exportZoneStream(
  db: D1Database,
  z: ZoneRow,
  pageSize = EXPORT_PAGE,
  now = new Date()
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let after: ExportKey | null = null
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await exportPage(db, z, after, pageSize, now)
      if (page.text !== '') controller.enqueue(encoder.encode(page.text))
      if (page.next === null) controller.close()
      else after = page.next
    },
  })
}
