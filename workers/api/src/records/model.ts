/**
 * @module The DNS record as the API holds it in memory, and its row / response forms.
 */
import type { RecordType } from '@edgedns/records'
import { isProxiable, txtPresentation } from '@edgedns/records'
import { LRUCache } from 'lru-cache'
import { columnNames, type RawRow } from '../db/raw-row.ts'
import { dnsRecords } from '../db/schema.ts'

export interface RecordSettings {
  ipv4_only?: boolean
  ipv6_only?: boolean
  flatten_cname?: boolean
}

export interface DnsRecord {
  id: string
  zoneId: string
  name: string
  type: RecordType
  content: string
  data: Record<string, unknown> | null
  priority: number | null
  ttl: number
  proxied: boolean
  comment: string | null
  tags: string[]
  settings: RecordSettings
  createdOn: string
  modifiedOn: string
  commentModifiedOn: string | null
  tagsModifiedOn: string | null
}

/** A `dns_records` row as raw SQL returns it (snake_case columns), derived from the schema. */
export type RecordRow = RawRow<typeof dnsRecords>

/**
 * The columns of `dns_records` in the schema's order: the order of `toRowValues` and of the JSON
 * arrays the change log keeps of a record.
 */
export const RECORD_COLUMNS = columnNames(dnsRecords)

export function reverseName(name: string): string {
  return name.split('.').reverse().join('.')
}

export function fromRow(r: RecordRow): DnsRecord {
  return {
    id: r.id,
    zoneId: r.zone_id,
    name: r.name,
    type: r.type as RecordType,
    content: r.content,
    data: r.data === null ? null : (JSON.parse(r.data) as Record<string, unknown>),
    priority: r.priority,
    ttl: r.ttl,
    proxied: r.proxied === 1,
    comment: r.comment,
    tags: JSON.parse(r.tags) as string[],
    settings: JSON.parse(r.settings) as RecordSettings,
    createdOn: r.created_on,
    modifiedOn: r.modified_on,
    commentModifiedOn: r.comment_modified_on,
    tagsModifiedOn: r.tags_modified_on,
  }
}

/** The row D1 holds for a record (the inverse of `fromRow`). */
export function toRow(r: DnsRecord): RecordRow {
  return {
    id: r.id,
    zone_id: r.zoneId,
    name: r.name,
    name_rev: reverseName(r.name),
    type: r.type,
    content: r.content,
    data: r.data === null ? null : JSON.stringify(r.data),
    priority: r.priority,
    ttl: r.ttl,
    proxied: r.proxied ? 1 : 0,
    comment: r.comment,
    tags: JSON.stringify(r.tags),
    settings: JSON.stringify(r.settings),
    created_on: r.createdOn,
    modified_on: r.modifiedOn,
    comment_modified_on: r.commentModifiedOn,
    tags_modified_on: r.tagsModifiedOn,
  }
}

/** Values in RECORD_COLUMNS order, for `json_each` bulk inserts. */
export function toRowValues(r: DnsRecord): unknown[] {
  const row = toRow(r)
  return RECORD_COLUMNS.map((c) => row[c])
}

const PRIORITY_TYPES = new Set<RecordType>(['MX', 'URI', 'SRV', 'HTTPS', 'SVCB'])

/** The Cloudflare v4 record object. */
export function toApi(r: DnsRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: r.id,
    name: r.name,
    type: r.type,
    content: r.content,
    proxiable: isProxiable(r.type, r.content),
    proxied: r.proxied,
    ttl: r.ttl,
    settings: r.settings,
    meta: {},
    comment: r.comment,
    tags: r.tags,
    created_on: r.createdOn,
    modified_on: r.modifiedOn,
  }
  if (r.commentModifiedOn !== null && r.comment !== null)
    out.comment_modified_on = r.commentModifiedOn
  if (r.tagsModifiedOn !== null && r.tags.length > 0) out.tags_modified_on = r.tagsModifiedOn
  if (r.priority !== null && PRIORITY_TYPES.has(r.type)) out.priority = r.priority
  if (r.data !== null) out.data = r.data
  return out
}

/**
 * The content two records of a type must share to be the same RR. TXT content is kept as sent,
 * quoted or not, so `acme` and `"acme"` (the same character-string) compare by their presentation.
 */
export function identityContent(r: Pick<DnsRecord, 'type' | 'content'>): string {
  if (r.type !== 'TXT') return r.content
  let key = txtKeys.get(r.content)
  if (key === undefined) {
    try {
      key = txtPresentation(r.content)
    } catch {
      key = r.content
    }
    txtKeys.set(r.content, key)
  }
  return key
}

/**
 * The most characters (contents and their presentations) the TXT identity cache keeps. A name with
 * many TXT records compares each with the others, so each content is parsed once; the cache lives
 * as long as the isolate, so it is bounded by what it holds, not by how many entries.
 */
export const TXT_KEY_CACHE_CHARS = 1_000_000
const txtKeys = new LRUCache<string, string>({
  maxSize: TXT_KEY_CACHE_CHARS,
  sizeCalculation: (value, key) => key.length + value.length,
})

/** Characters the TXT identity cache holds now. */
export function txtKeyCacheChars(): number {
  return txtKeys.calculatedSize
}

/**
 * What makes two records the same RR (an "identical record"): name, type, content (TXT by what it
 * means on the wire, see identityContent) and, for types whose priority is a field of their own
 * (MX 10 and MX 20 to one host are two RRs), the priority.
 */
export function identityKey(r: Pick<DnsRecord, 'name' | 'type' | 'content' | 'priority'>): string {
  const priority =
    PRIORITY_TYPES.has(r.type) && r.priority !== null && r.priority !== undefined ? r.priority : ''
  return `${r.name}\t${r.type}\t${identityContent(r)}\t${priority}`
}

/** Whether two tag lists serialise alike (element by element when they are all strings). */
export function sameTags(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue
    if (typeof a[i] === 'string' && typeof b[i] === 'string') return false
    return JSON.stringify(a) === JSON.stringify(b)
  }
  return true
}

/** Whether two data or settings values serialise alike; null and empty objects without serialising. */
function sameJson(a: object | null, b: object | null): boolean {
  if (a === b) return true
  if (a === null || b === null) return false
  const ka = Object.keys(a).length
  const kb = Object.keys(b).length
  if (ka === 0 && kb === 0) return true
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Whether two versions of a record differ in anything a user set. */
export function sameRecord(a: DnsRecord, b: DnsRecord): boolean {
  return (
    a.name === b.name &&
    a.type === b.type &&
    a.content === b.content &&
    sameJson(a.data, b.data) &&
    a.priority === b.priority &&
    a.ttl === b.ttl &&
    a.proxied === b.proxied &&
    a.comment === b.comment &&
    sameTags(a.tags, b.tags) &&
    sameJson(a.settings, b.settings)
  )
}
