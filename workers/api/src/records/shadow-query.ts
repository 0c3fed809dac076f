/**
 * @module The shadow parameters of the records list (Cloudflare's shadowed records): the
 * `shadowed_by_name` and `shadowing_name` filters as SQL on the identity index
 * (zone_id, name_rev, type, …), and the `include_shadow_metadata` flag.
 *
 * An NS record set at a name below the apex delegates that name: the records at or below it are
 * shadowed (not served; a resolver is referred to the delegation's servers). The NS, DS and NSEC
 * records at the delegation's own name belong to the delegation and are not shadowed by it.
 */
import { normalizeHostname, RecordError } from '@edgedns/records'
import { ApiError, Codes } from '../http/api-error.ts'
import { reverseName } from './model.ts'

/** Types a delegation holds at its own name, which it does not shadow. */
export const DELEGATION_TYPES: ReadonlySet<string> = new Set(['NS', 'DS', 'NSEC'])
const DELEGATION_TYPES_SQL = `(${[...DELEGATION_TYPES].map((t) => `'${t}'`).join(', ')})`

function bad(message: string): never {
  throw ApiError.badRequest(Codes.invalidRequest, message)
}

/** `include_shadow_metadata`: true or false (absent or empty: false). */
export function includeShadowMetadata(v: string | undefined): boolean {
  if (v === undefined || v === '' || v === 'false') return false
  if (v === 'true') return true
  return bad(`include_shadow_metadata must be true or false, got ${JSON.stringify(v)}`)
}

/** A filter's name: normalised, and a name strictly below the zone apex. */
function subdomainOf(zoneName: string, param: string, raw: string): string {
  let name: string
  try {
    name = normalizeHostname(raw)
  } catch (e) {
    if (e instanceof RecordError) bad(`${param} is not a valid DNS name: ${JSON.stringify(raw)}`)
    throw e
  }
  if (name === zoneName) bad(`${param} must be a subdomain of the zone, not its apex ${zoneName}`)
  if (!name.endsWith(`.${zoneName}`))
    bad(`${param} must be a subdomain of the zone ${zoneName}; got ${JSON.stringify(raw)}`)
  return name
}

/**
 * SQL condition on `dns_records`: records at or below the reversed name `rev` (SQL expressions:
 * `rev`, `rev || '.'`, `rev || '/'`), except those of the delegation types at `rev` itself.
 * `rev.` < name_rev < `rev/` is "strictly below"; the outer range keeps the index seek, and the
 * OR drops names that merely share the prefix (`x-y` sorts between `x` and `x.`).
 */
export function belowDelegation(rev: string, revDot: string, revSlash: string): string {
  return `name_rev >= ${rev} AND name_rev < ${revSlash} AND (name_rev > ${revDot} OR (name_rev = ${rev} AND type NOT IN ${DELEGATION_TYPES_SQL}))`
}

/**
 * The conditions of `shadowed_by_name` and `shadowing_name`, pushing their values to `params`.
 * They narrow the whole result: callers AND them with the other filters whatever `match` says.
 */
export function shadowFilters(
  one: (key: string) => string | undefined,
  zoneName: string,
  includeMeta: boolean,
  params: unknown[]
): string[] {
  const out: string[] = []
  const by = one('shadowed_by_name')
  if (by !== undefined && by !== '') {
    if (!includeMeta) bad('shadowed_by_name requires include_shadow_metadata=true')
    const rev = reverseName(subdomainOf(zoneName, 'shadowed_by_name', by))
    params.push(rev, `${rev}.`, `${rev}/`)
    const n = params.length
    // Only a delegation shadows: without an NS record set at the name, nothing is shadowed by it.
    out.push(
      `(${belowDelegation(`?${n - 2}`, `?${n - 1}`, `?${n}`)} AND EXISTS (SELECT 1 FROM dns_records d WHERE d.zone_id = ?1 AND d.name_rev = ?${n - 2} AND d.type = 'NS'))`
    )
  }
  const shadowing = one('shadowing_name')
  if (shadowing !== undefined && shadowing !== '') {
    const name = subdomainOf(zoneName, 'shadowing_name', shadowing)
    params.push(JSON.stringify(ancestorsBelowApex(name, zoneName).map(reverseName)))
    out.push(`(type = 'NS' AND name_rev IN (SELECT value FROM json_each(?${params.length})))`)
  }
  return out
}

/** `name` and each of its ancestors down to, not including, the zone apex. */
export function ancestorsBelowApex(name: string, zoneName: string): string[] {
  const out: string[] = []
  for (let n = name; n !== zoneName && n.endsWith(`.${zoneName}`); n = n.slice(n.indexOf('.') + 1))
    out.push(n)
  return out
}
