/**
 * @module Turns parsed zone-file entries into validated batch posts, each remembering its line.
 *
 * Rules (documented in docs/import-export.md):
 * - SOA at the apex is skipped: the zone's SOA is managed through dns_settings. A SOA elsewhere is
 *   an error. The file's apex NS records are skipped when they are exactly the zone's default name
 *   servers (the zone serves those when it stores no apex NS record); any other apex NS set is
 *   imported whole, and is then the zone's apex NS set (zones/apex-ns.ts).
 * - Names outside the zone and types the API does not accept are errors naming the line. Escapes
 *   in names (`\065`, `\-`) are decoded; an escaped dot (`a\.b`, one label) is refused, as the
 *   API's labels hold only letters, digits, '-' and '_'.
 * - `; comment cf_tags=a,b:c cf-proxied:true cf-flatten-cname` sets comment, tags, proxied and
 *   settings.flatten_cname; the reserved `cf-proxied` tag overrides the form's `proxied` flag, which
 *   applies to proxiable records (A, AAAA, CNAME) only.
 * - TTL 1 stays 1 (automatic, as Cloudflare exports it); other TTLs are clamped to 60..86400.
 * - A record repeated in the file (same name, type and content) is imported once.
 */
import {
  fqdn,
  fromPresentation,
  isProxiable,
  isRecordType,
  MAX_TTL,
  MIN_TTL,
  ownerFromPresentation,
  RecordError,
  type RecordType,
} from '@edgedns/records'
import { typeFromName, typeName } from '@edgedns/dns-facts'
import { parseCfComment, type ZoneEntry } from '@edgedns/zonefile'
import { ApiError, Codes } from '../http/api-error.ts'
import { buildRecord, type BuildContext, type RecordFieldsInput } from '../records/input.ts'
import { identityKey, type DnsRecord } from '../records/model.ts'
import { isDefaultSet } from '../zones/apex-ns.ts'

export interface ImportItem {
  /** Canonical record fields, ready for a batch post. */
  fields: RecordFieldsInput
  line: number
  /** name, type, content (and priority where it is its own field): what makes two records identical. */
  key: string
  type: RecordType
}

export interface MappedImport {
  items: ImportItem[]
  /** Lines skipped on purpose (SOA, own apex NS, repeats in the file), with the reason. */
  skipped: { line: number; reason: string }[]
}

export interface ImportZone {
  name: string
  /** The name servers the zone names at its apex when it stores none (zones/apex-ns.ts). */
  defaultNameServers: string[]
}

const PLACEHOLDER_ID = '0'.repeat(32)

export function recordKey(r: Pick<DnsRecord, 'name' | 'type' | 'content' | 'priority'>): string {
  return identityKey(r)
}

export function atLine(line: number, e: unknown): unknown {
  if (e instanceof RecordError) return new ApiError(400, e.code, `line ${line}: ${e.message}`)
  if (e instanceof ApiError)
    return new ApiError(e.status, e.code, `line ${line}: ${e.message}`, {
      ...e.extra,
      pointer: undefined,
    })
  return e
}

function clampTtl(ttl: number): number {
  if (ttl === 1) return 1
  return Math.min(MAX_TTL, Math.max(MIN_TTL, ttl))
}

function inZone(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`)
}

/** `A`, `a` and RFC 3597's `TYPE1` are all `A`; a code without a mnemonic stays `TYPE<n>`. */
function mnemonic(written: string): string {
  const upper = written.toUpperCase()
  const code = /^TYPE\d+$/.test(upper) ? typeFromName(upper) : undefined
  return code === undefined ? upper : typeName(code)
}

/** atLine adds the `line N: ` prefix. */
function unsupported(message: string): ApiError {
  return ApiError.badRequest(Codes.importUnsupported, message)
}

function toItem(
  entry: ZoneEntry,
  zone: ImportZone,
  formProxied: boolean,
  ctx: BuildContext
): DnsRecord | 'skip' {
  // Escapes decoded as in rdata names; an escaped dot is refused.
  const owner = ownerFromPresentation(entry.name)
  if (!inZone(owner, zone.name)) {
    throw unsupported(`${owner} is outside the zone ${zone.name}`)
  }
  const type = mnemonic(entry.type)
  if (type === 'SOA') {
    if (owner === zone.name) return 'skip'
    throw unsupported('a SOA record is only allowed at the zone apex')
  }
  if (!isRecordType(type)) throw unsupported(`record type ${type} is not supported`)
  const content = fromPresentation(type, entry.rdata, fqdn(ownerFromPresentation(entry.origin)))
  const cf = parseCfComment(entry.comment)
  const proxiable = isProxiable(type, content.content ?? type)
  const proxied = cf.proxied ?? (formProxied && proxiable)
  const fields: RecordFieldsInput = {
    ...content,
    name: fqdn(owner),
    ttl: clampTtl(entry.ttl),
    proxied,
    comment: cf.comment ?? null,
    tags: cf.tags,
    settings: cf.flattenCname === undefined ? undefined : { flatten_cname: cf.flattenCname },
  }
  return buildRecord(fields, ctx, PLACEHOLDER_ID)
}

/** Validates every entry (errors name the line) and drops the skipped ones. */
export function mapEntries(
  entries: ZoneEntry[],
  zone: ImportZone,
  formProxied: boolean,
  ctx: BuildContext
): MappedImport {
  const items: ImportItem[] = []
  const skipped: MappedImport['skipped'] = []
  const seen = new Set<string>()
  for (const entry of entries) {
    let rec: DnsRecord | 'skip'
    try {
      rec = toItem(entry, zone, formProxied, ctx)
    } catch (e) {
      throw atLine(entry.line, e)
    }
    if (rec === 'skip') {
      skipped.push({
        line: entry.line,
        reason: `${mnemonic(entry.type)} ${entry.name} is managed by the zone`,
      })
      continue
    }
    const key = recordKey(rec)
    if (seen.has(key)) {
      skipped.push({ line: entry.line, reason: `${rec.type} ${rec.name} repeats an earlier line` })
      continue
    }
    seen.add(key)
    items.push({ fields: canonicalFields(rec), line: entry.line, key, type: rec.type })
  }
  const apexNs = items.filter((i) => i.type === 'NS' && i.fields.name === zone.name)
  const hosts = apexNs.map((i) => String(i.fields.content))
  if (apexNs.length === 0 || !isDefaultSet(hosts, zone.defaultNameServers))
    return { items, skipped }
  for (const i of apexNs)
    skipped.push({ line: i.line, reason: `NS ${zone.name} is one of the zone's own name servers` })
  return { items: items.filter((i) => !apexNs.includes(i)), skipped }
}

function canonicalFields(r: DnsRecord): RecordFieldsInput {
  const f: RecordFieldsInput = {
    type: r.type,
    name: r.name,
    ttl: r.ttl,
    proxied: r.proxied,
    comment: r.comment,
    tags: r.tags,
  }
  if (r.data === null) f.content = r.content
  else f.data = r.data
  if (r.priority !== null) f.priority = r.priority
  if (Object.keys(r.settings).length > 0) f.settings = r.settings
  return f
}
