/**
 * @module Cloudflare's shadow metadata (`include_shadow_metadata=true`) for the records a response
 * carries: the NS records that shadow each one (`shadowed_by`), glue (`is_glue`), glue no resolver
 * is referred to (`dead_glue`) and how many records a delegation shadows (`shadowed_records_count`).
 *
 * Two reads in one round trip, whatever the zone's size: the NS records at the records' names and
 * their ancestors below the apex (a name lookup each on the (zone_id, type, name) index), and, when
 * the records include delegations, a count below each of them that stops at SHADOWED_COUNT_CAP.
 */
import type { DnsRecord } from './model.ts'
import { reverseName } from './model.ts'
import { ancestorsBelowApex, belowDelegation, DELEGATION_TYPES } from './shadow-query.ts'

/** Cloudflare computes the metadata only for responses of at most this many records; so does this API. */
export const SHADOW_META_MAX_RECORDS = 1000
/** `shadowed_records_count` stops counting here: this value means "at least this many". */
export const SHADOWED_COUNT_CAP = 10_000

export interface ShadowMeta {
  shadowed_by?: string[]
  is_glue?: true
  dead_glue?: true
  shadowed_records_count?: number
}

export interface NsRow {
  id: string
  name: string
  content: string
}

/**
 * NS records at the names of ?2 (a JSON array of names below the apex) and at their ancestors
 * below the apex: a name is stripped of its first label while what remains is longer than the
 * zone name (?3, its length).
 */
export const NS_AT_OR_ABOVE = `WITH RECURSIVE anc(name) AS (
    SELECT value FROM json_each(?2)
    UNION
    SELECT substr(name, instr(name, '.') + 1) FROM anc WHERE length(name) - instr(name, '.') > ?3)
  SELECT id, name, content FROM dns_records
  WHERE zone_id = ?1 AND type = 'NS' AND name IN (SELECT name FROM anc)
  ORDER BY name, id`

/** The records each delegation of ?2 (a JSON array of reversed names) shadows, counted up to the cap. */
export const SHADOWED_COUNTS = `SELECT j.value AS rev, (SELECT count(*) FROM (
    SELECT 1 FROM dns_records WHERE zone_id = ?1 AND ${belowDelegation('j.value', "j.value || '.'", "j.value || '/'")}
    LIMIT ${SHADOWED_COUNT_CAP})) AS n
  FROM json_each(?2) j`

/**
 * The shadow metadata of `records` by record id (records without any are absent), or null when
 * there are more than SHADOW_META_MAX_RECORDS records: then no record carries any.
 */
export async function shadowMeta(
  db: D1Database,
  zone: { id: string; name: string },
  records: readonly DnsRecord[]
): Promise<Map<string, ShadowMeta> | null> {
  if (records.length > SHADOW_META_MAX_RECORDS) return null
  const below = new Set(records.map((r) => r.name).filter((n) => n.endsWith(`.${zone.name}`)))
  // Only names below the apex can be shadowed or delegate.
  if (below.size === 0) return new Map()
  const delegations = new Set(
    records.filter((r) => r.type === 'NS' && below.has(r.name)).map((r) => reverseName(r.name))
  )
  const statements = [
    db.prepare(NS_AT_OR_ABOVE).bind(zone.id, JSON.stringify([...below]), zone.name.length),
  ]
  if (delegations.size > 0)
    statements.push(db.prepare(SHADOWED_COUNTS).bind(zone.id, JSON.stringify([...delegations])))
  const [ns, counted] = await db.batch(statements)
  const counts = new Map<string, number>()
  for (const row of (counted?.results ?? []) as { rev: string; n: number }[])
    counts.set(reverseName(row.rev), row.n)
  return computeShadowMeta(zone.name, records, ns!.results as unknown as NsRow[], counts)
}

/**
 * The metadata from the NS records at or above the records' names (`ns`) and the shadowed-record
 * counts of the delegations among them (`counts`, by name).
 */
export function computeShadowMeta(
  zoneName: string,
  records: readonly DnsRecord[],
  ns: readonly NsRow[],
  counts: ReadonlyMap<string, number>
): Map<string, ShadowMeta> {
  const nsAt = new Map<string, NsRow[]>()
  for (const row of ns) {
    const at = nsAt.get(row.name)
    if (at) at.push(row)
    else nsAt.set(row.name, [row])
  }
  const out = new Map<string, ShadowMeta>()
  for (const r of records) {
    const meta: ShadowMeta = {}
    // The delegations above the record, shallowest first: the first is where a resolver is sent.
    const delegations = ancestorsBelowApex(r.name, zoneName)
      .reverse()
      .filter((n) => nsAt.has(n) && !(n === r.name && DELEGATION_TYPES.has(r.type)))
    if (delegations.length > 0) {
      meta.shadowed_by = delegations.flatMap((n) => nsAt.get(n)!.map((row) => row.id))
      if (r.type === 'A' || r.type === 'AAAA') {
        const needing = delegations.filter((n) =>
          nsAt.get(n)!.some((row) => row.content === r.name)
        )
        if (needing.length > 0) {
          meta.is_glue = true
          // Glue only a deeper delegation needs: the shallower one answers for its name first.
          if (needing[0] !== delegations[0]) meta.dead_glue = true
        }
      }
    }
    if (r.type === 'NS' && r.name !== zoneName) {
      const n = counts.get(r.name) ?? 0
      if (n > 0) meta.shadowed_records_count = n
    }
    if (Object.keys(meta).length > 0) out.set(r.id, meta)
  }
  return out
}

/** The API form of a record with its shadow metadata, if any, as its `meta`. */
export function withShadowMeta(
  api: Record<string, unknown>,
  metas: ReadonlyMap<string, ShadowMeta> | null
): Record<string, unknown> {
  const meta = metas?.get(api.id as string)
  return meta ? { ...api, meta: { ...(api.meta as object), ...meta } } : api
}
