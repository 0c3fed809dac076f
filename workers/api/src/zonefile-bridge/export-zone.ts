/**
 * @module Writes a zone as a BIND master file: SOA from the zone's settings, apex NS from its name
 * servers, then every record in presentation form. TTL 1 (automatic) is written as 300, what it
 * serves as. Comments, tags, proxied and flatten_cname travel in `; <comment> cf_tags=...`;
 * A/AAAA/CNAME always carry `cf-proxied:true|false` so a re-import keeps their proxy status
 * whatever the form's `proxied` flag says. settings.ipv4_only/ipv6_only are not exported.
 */
import { AUTO_TTL_SECONDS, fqdn, toPresentation, PROXIABLE_TYPES } from '@edgedns/records'
import { formatCfComment, serializeZoneFile, type SerializeRecord } from '@edgedns/zonefile'
import type { DnsRecord } from '../records/model.ts'
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
