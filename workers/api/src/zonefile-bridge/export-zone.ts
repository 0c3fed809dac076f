/**
 * @module Writes a zone as a BIND master file: SOA from the zone's settings, apex NS from its name
 * servers, then every record in presentation form. TTL 1 (automatic) is written as 300, what it
 * serves as. Comments, tags, proxied and flatten_cname travel in `; <comment> cf_tags=...`;
 * A/AAAA/CNAME always carry `cf-proxied:true|false` so a re-import keeps their proxy status
 * whatever the form's `proxied` flag says. settings.ipv4_only/ipv6_only are not exported.
 *
 * `exportZoneStream` writes the same file page by page, keyed on the records' identity index, so a
 * zone of any size is never held in memory: each page is in canonical DNS order, and pages follow
 * the stored reversed-name order (the same order, except where a label is another's prefix followed
 * by `-` or `*` and the two fall on different pages).
 */
import { AUTO_TTL_SECONDS, fqdn, toPresentation, PROXIABLE_TYPES } from '@edgedns/records'
import { formatCfComment, serializeZoneFile, type SerializeRecord } from '@edgedns/zonefile'
import { fromRow, type DnsRecord, type RecordRow } from '../records/model.ts'
import type { ZoneRow } from '../zones/model.ts'

export function soaRecord(z: ZoneRow): SerializeRecord {
  const rdata = [fqdn(z.soaMname), fqdn(z.soaRname), z.serial, z.soaRefresh, z.soaRetry, z.soaExpire, z.soaMinimum].join(' ')
  return { name: z.name, ttl: z.soaTtl, type: 'SOA', rdata }
}

export function recordLine(r: DnsRecord): SerializeRecord {
  const comment = formatCfComment({
    comment: r.comment,
    tags: r.tags,
    proxied: PROXIABLE_TYPES.has(r.type) ? r.proxied : undefined,
    flattenCname: r.settings.flatten_cname === true,
  })
  const line: SerializeRecord = {
    name: r.name,
    ttl: r.ttl === 1 ? AUTO_TTL_SECONDS : r.ttl,
    type: r.type,
    rdata: toPresentation(r),
  }
  if (comment !== '') line.comment = comment
  return line
}

export function exportZone(z: ZoneRow, records: DnsRecord[], now = new Date()): string {
  const servers = JSON.parse(z.nameServers) as string[]
  const ns = servers.map((host) => ({ name: z.name, ttl: z.nsTtl, type: 'NS', rdata: fqdn(host) }))
  // An apex NS record naming one of the zone's own servers is already written above.
  const own = (r: DnsRecord) => r.type === 'NS' && r.name === z.name && servers.includes(r.content)
  return serializeZoneFile({
    origin: z.name,
    header: `Zone ${z.name} exported ${now.toISOString()} by edgedns; serial ${z.serial}`,
    soa: soaRecord(z),
    records: [...ns, ...records.filter((r) => !own(r)).map(recordLine)],
  })
}

/** Records per page of a streamed export. */
export const EXPORT_PAGE = 5000

const PAGE_SQL = `SELECT * FROM dns_records WHERE zone_id = ?1
    AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
  ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`

/** The next page of records after `after` (the last row of the previous page; null for the first). */
async function recordPage(db: D1Database, zoneId: string, after: RecordRow | null, limit: number): Promise<RecordRow[]> {
  const key = after ? [after.name_rev, after.type, after.content, after.priority ?? -1] : ['', '', '', -2]
  const { results } = await db.prepare(PAGE_SQL).bind(zoneId, ...key, limit).all<RecordRow>()
  return results
}

/** Lines of a zone-file fragment without the `$ORIGIN`/`$TTL` lines serializeZoneFile starts with. */
function bodyLines(origin: string, records: SerializeRecord[]): string {
  if (records.length === 0) return ''
  const text = serializeZoneFile({ origin, records })
  return text.slice(text.indexOf('\n', text.indexOf('\n') + 1) + 1)
}

export function exportZoneStream(db: D1Database, z: ZoneRow, pageSize = EXPORT_PAGE, now = new Date()): ReadableStream<Uint8Array> {
  const servers = JSON.parse(z.nameServers) as string[]
  const ns = servers.map((host) => ({ name: z.name, ttl: z.nsTtl, type: 'NS', rdata: fqdn(host) }))
  const own = (r: DnsRecord) => r.type === 'NS' && r.name === z.name && servers.includes(r.content)
  const encoder = new TextEncoder()
  let after: RecordRow | null = null
  let first = true
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = await recordPage(db, z.id, after, pageSize)
      const lines = rows.map(fromRow).filter((r) => !own(r)).map(recordLine)
      const text = first
        ? serializeZoneFile({
            origin: z.name,
            header: `Zone ${z.name} exported ${now.toISOString()} by edgedns; serial ${z.serial}`,
            soa: soaRecord(z),
            records: [...ns, ...lines],
          })
        : bodyLines(z.name, lines)
      first = false
      if (text !== '') controller.enqueue(encoder.encode(text))
      if (rows.length < pageSize) controller.close()
      else after = rows[rows.length - 1]!
    },
  })
}
