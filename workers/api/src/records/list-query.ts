/**
 * @module Translates the list endpoint's query parameters (as the cloudflare SDK sends them) to SQL.
 * Substring tests use instr/substr rather than LIKE: no escaping, and no 50-byte LIKE pattern cap.
 */
import {
  isRecordType,
  RECORD_TYPES,
  normalizeContent,
  normalizeHostname,
  type RecordType,
} from '@edgedns/records'
import { ApiError, Codes } from '../http/api-error.ts'
import { reverseName } from './model.ts'
import { includeShadowMetadata, shadowFilters } from './shadow-query.ts'

export interface ListQuery {
  where: string
  params: unknown[]
  orderBy: string
  page: number
  perPage: number
  /** `include_shadow_metadata=true`: the page's records get their shadow metadata. */
  shadowMeta: boolean
}

type Getter = (key: string) => string[]
const MATCH_OPS = ['exact', 'contains', 'startswith', 'endswith'] as const
/** Order values (a Map: a query value such as `constructor` must not find an inherited key). */
const ORDER_COLUMNS = new Map<string, string>([
  ['type', 'type'],
  ['name', 'name'],
  ['content', 'content'],
  ['ttl', 'ttl'],
  ['proxied', 'proxied'],
])
const MAX_PER_PAGE = 50_000
/** Bound parameters D1 allows per statement (100) minus the zone id, and SQLite's expression depth. */
const MAX_FILTER_PARAMS = 60
/** Offsets past this answer an empty page (SQLite offsets are 64-bit; no zone is this large). */
export const MAX_OFFSET = 1_000_000_000

function bad(message: string): never {
  throw ApiError.badRequest(Codes.invalidRequest, message)
}

function textOp(
  column: string,
  op: (typeof MATCH_OPS)[number],
  value: string,
  params: unknown[]
): string {
  params.push(value.toLowerCase())
  const p = `?${params.length}`
  switch (op) {
    case 'exact':
      return `lower(${column}) = ${p}`
    case 'contains':
      return `instr(lower(${column}), ${p}) > 0`
    case 'startswith':
      return `substr(lower(${column}), 1, length(${p})) = ${p}`
    case 'endswith':
      // An empty value ends every text, as it starts and is contained in every one (substr(x, -0) is all of x).
      return `(${p} = '' OR substr(lower(${column}), -length(${p})) = ${p})`
  }
}

function normalizeNameFilter(v: string): string {
  return v.endsWith('.') ? v.slice(0, -1) : v
}

function tagOp(
  op: 'present' | (typeof MATCH_OPS)[number],
  value: string,
  params: unknown[]
): string {
  if (op === 'present') {
    params.push(value.toLowerCase())
    const p = `?${params.length}`
    return `EXISTS (SELECT 1 FROM json_each(dns_records.tags) t WHERE t.value = ${p} OR substr(t.value, 1, length(${p}) + 1) = ${p} || ':')`
  }
  const colon = value.indexOf(':')
  if (colon <= 0) bad(`tag.${op} expects name:value, got ${JSON.stringify(value)}`)
  params.push(value.slice(0, colon).toLowerCase())
  const name = `?${params.length}`
  const cond = textOp(`substr(t.value, length(${name}) + 2)`, op, value.slice(colon + 1), params)
  return `EXISTS (SELECT 1 FROM json_each(dns_records.tags) t WHERE substr(t.value, 1, length(${name}) + 1) = ${name} || ':' AND ${cond})`
}

export function parseListQuery(get: Getter, zone: { id: string; name: string }): ListQuery {
  const params: unknown[] = [zone.id]
  const filters: string[] = []
  const tagFilters: string[] = []
  const one = (k: string): string | undefined => get(k).at(-1)

  const type = recordType(one('type'))
  if (type !== undefined) {
    params.push(type)
    filters.push(`type = ?${params.length}`)
  }
  for (const field of ['name', 'content', 'comment'] as const) {
    const legacy = one(field)
    const exact = [...(legacy === undefined ? [] : [legacy]), ...get(`${field}.exact`)]
    for (const v of exact) {
      if (field === 'name') {
        // Names are stored lowercase; the identity index answers name_rev equality directly.
        params.push(reverseName(normalizeNameFilter(v).toLowerCase()))
        filters.push(`name_rev = ?${params.length}`)
      } else if (field === 'content') {
        const forms = storedContents(type, v).map((c) => textOp(field, 'exact', c, params))
        filters.push(forms.length === 1 ? forms[0]! : `(${forms.join(' OR ')})`)
      } else filters.push(textOp(field, 'exact', v, params))
    }
    for (const op of MATCH_OPS.filter((o) => o !== 'exact')) {
      for (const v of get(`${field}.${op}`))
        filters.push(textOp(field, op, field === 'name' ? normalizeNameFilter(v) : v, params))
    }
  }
  if (get('comment.present').length > 0) filters.push(`comment IS NOT NULL`)
  if (get('comment.absent').length > 0) filters.push(`comment IS NULL`)
  const proxied = one('proxied')
  if (proxied !== undefined) {
    if (proxied !== 'true' && proxied !== 'false')
      bad(`proxied must be true or false, got ${JSON.stringify(proxied)}`)
    filters.push(`proxied = ${proxied === 'true' ? 1 : 0}`)
  }
  for (const v of get('tag'))
    tagFilters.push(v.includes(':') ? tagOp('exact', v, params) : tagOp('present', v, params))
  for (const v of get('tag.present')) tagFilters.push(tagOp('present', v, params))
  for (const v of get('tag.absent')) tagFilters.push(`NOT ${tagOp('present', v, params)}`)
  for (const op of MATCH_OPS)
    for (const v of get(`tag.${op}`)) tagFilters.push(tagOp(op, v, params))

  const shadowMeta = includeShadowMetadata(one('include_shadow_metadata'))
  const scope = shadowFilters(one, zone.name, shadowMeta, params)

  // Free text over name, content, comment and each tag; it narrows the result whatever `match`
  // says (as Cloudflare's does), and reads tags one by one, not their JSON text.
  const search = one('search')
  if (search !== undefined && search !== '') {
    params.push(search.toLowerCase())
    const p = `?${params.length}`
    scope.push(
      `(instr(name, ${p}) > 0 OR instr(lower(content), ${p}) > 0 OR instr(lower(coalesce(comment, '')), ${p}) > 0 OR EXISTS (SELECT 1 FROM json_each(dns_records.tags) t WHERE instr(lower(t.value), ${p}) > 0))`
    )
  }

  const match = oneOf(one('match'), ['all', 'any'], 'match')
  const tagMatch = oneOf(one('tag_match'), ['all', 'any'], 'tag_match')
  const clauses: string[] = []
  if (filters.length > 0) clauses.push(`(${filters.join(match === 'any' ? ' OR ' : ' AND ')})`)
  if (tagFilters.length > 0)
    clauses.push(`(${tagFilters.join(tagMatch === 'any' ? ' OR ' : ' AND ')})`)
  if (params.length - 1 > MAX_FILTER_PARAMS)
    bad(`too many filters: at most ${MAX_FILTER_PARAMS} filter values per request`)
  const where = [
    'zone_id = ?1',
    ...scope,
    clauses.length > 0 ? `(${clauses.join(match === 'any' ? ' OR ' : ' AND ')})` : '',
  ]
    .filter(Boolean)
    .join(' AND ')

  const order = oneOf(one('order'), [...ORDER_COLUMNS.keys()], 'order')
  const direction = oneOf(one('direction'), ['asc', 'desc'], 'direction')
  const col = ORDER_COLUMNS.get(order ?? 'type')!
  const dir = direction === 'desc' ? 'DESC' : 'ASC'
  const orderBy = `${col} ${dir}, name ${dir}, id ${dir}`

  const page = intParam(one('page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const perPage = intParam(one('per_page'), 'per_page', 100, 1, MAX_PER_PAGE)
  return { where, params, orderBy, page, perPage, shadowMeta }
}

/** Types whose content is one host name, stored lowercase without its trailing dot. */
const HOST_CONTENT: ReadonlySet<string> = new Set(['CNAME', 'NS', 'PTR', 'MX'])

/**
 * A `content` filter's value as a record of `type` would store it (a trailing dot dropped, an IPv6
 * address compressed, a Unicode name in Punycode), so that a client that was told a record exists
 * finds it with the value it sent. With no type named: the value as given, and as a host name or
 * an IPv6 address would be stored when it reads as one. A value that does not parse is as given.
 */
function storedContents(type: RecordType | undefined, value: string): string[] {
  if (type !== undefined) return [storedAs(type, value) ?? value]
  const forms = new Set([value.toLowerCase()])
  for (const t of ['CNAME', 'AAAA'] as const) forms.add((storedAs(t, value) ?? value).toLowerCase())
  return [...forms]
}

function storedAs(type: RecordType, value: string): string | undefined {
  try {
    if (HOST_CONTENT.has(type)) return normalizeHostname(value)
    return normalizeContent({ type, content: value }).content ?? undefined
  } catch {
    return undefined
  }
}

/**
 * `type`: one record type, in any case (the list has no way to ask for several); anything else,
 * `A,AAAA` or `__proto__` included, is refused as the record API refuses an unknown type (9020)
 * rather than matching nothing.
 */
function recordType(v: string | undefined): RecordType | undefined {
  if (v === undefined || v === '') return undefined
  const upper = v.toUpperCase()
  if (isRecordType(upper)) return upper
  throw ApiError.badRequest(
    Codes.typeInvalid,
    `type must be one DNS record type (${RECORD_TYPES.join(', ')}); got ${JSON.stringify(v)}`
  )
}

function oneOf(v: string | undefined, allowed: string[], name: string): string | undefined {
  if (v === undefined || v === '') return undefined
  if (!allowed.includes(v))
    bad(`${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(v)}`)
  return v
}

export function intParam(
  v: string | undefined,
  name: string,
  dflt: number,
  min: number,
  max: number
): number {
  if (v === undefined || v === '') return dflt
  // Decimal digits only: Number() would also read `0x10`, `1e1`, `1.0` and ` 5`.
  const n = /^[0-9]+$/.test(v) ? Number(v) : NaN
  if (!Number.isSafeInteger(n) || n < min || n > max)
    bad(`${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(v)}`)
  return n
}
