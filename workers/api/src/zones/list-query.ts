/**
 * @module `GET /zones` as one SQL page: Cloudflare's filters (name operators, status, account.id,
 * account.name, `match` all or any of those; and type), order/direction and page/per_page, with
 * the token's visibility expressed in SQL.
 * Substring tests use instr/substr, never LIKE (no escaping, no 50-byte pattern cap).
 *
 * Paging at scale: every page carries `result_info.cursors.after` when more may follow; passing it
 * back as `cursor` continues after the last zone shown (keyset pagination: the page starts with an
 * index seek, so page 5,000 costs what page 1 costs). `page`/`per_page` keep working as the official
 * SDK uses them, but a deep `page` is an OFFSET: SQLite steps over every earlier row, so its cost grows
 * with the page number. Orders by name, status and account id walk an index (`zones_name`,
 * `zones_status`, `zones_account`); ordering by account name sorts the matching zones.
 */
import type { Principal } from '../auth/permissions.ts'
import { ApiError, Codes } from '../http/api-error.ts'

export interface ZoneListQuery {
  /** SQL after `FROM zones z JOIN accounts a ON a.id = z.account_id`: the WHERE clause. */
  where: string
  orderBy: string
  /** The order's direction (of the sort value, then the name). */
  direction: 'ASC' | 'DESC'
  params: unknown[]
  /** True when the page continues a cursor (no offset, no total count). */
  continued: boolean
  /** The cursor that continues after a row of this page (its order value and name). */
  cursorAfter: (row: { sort: unknown; name: string }) => string
  /** The SQL expression a row's `sort` value is read from. */
  sortColumn: string
  /**
   * Whether the WHERE clause reads the account's columns (`a.`): when it does not, the count runs
   * on `zones` alone (every zone has its account), an index-only count instead of a join per zone.
   */
  readsAccount: boolean
}

/** What a cursor holds: the order it belongs to, and the last row's order value and name. */
type CursorState = [order: string, direction: 'ASC' | 'DESC', sort: unknown, name: string]

function encodeCursor(state: CursorState): string {
  const bytes = new TextEncoder().encode(JSON.stringify(state))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

function decodeCursor(raw: string): CursorState {
  try {
    const b64 = raw.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))
    const v: unknown = JSON.parse(new TextDecoder().decode(bytes))
    if (
      Array.isArray(v) &&
      v.length === 4 &&
      typeof v[0] === 'string' &&
      (v[1] === 'ASC' || v[1] === 'DESC') &&
      (typeof v[2] === 'string' || typeof v[2] === 'number') &&
      typeof v[3] === 'string'
    )
      return v as CursorState
  } catch {
    // fall through to the error below
  }
  throw ApiError.badRequest(
    Codes.invalidRequest,
    'cursor is not one this API returned in result_info.cursors.after'
  )
}

/** Order values (a Map: a query value such as `constructor` must not find an inherited key). */
const ORDER_COLUMNS = new Map<string, string>([
  ['name', 'z.name'],
  ['status', 'z.status'],
  ['account.id', 'z.account_id'],
  ['account.name', 'a.name'],
  ['plan.id', 'z.name'],
])

const DIRECTIONS = new Map<string, 'ASC' | 'DESC'>([
  ['asc', 'ASC'],
  ['desc', 'DESC'],
])

const NAME_OPS = ['equal', 'not_equal', 'starts_with', 'ends_with', 'contains'] as const

/**
 * Statuses `status` may name: Cloudflare's. Ours are pending and active (a zone an account move
 * fences is shown as one of them); initializing and moved are valid and match no zone.
 */
const ZONE_STATUSES: ReadonlySet<string> = new Set(['initializing', 'pending', 'active', 'moved'])

/** Zone types `type` may name. */
const ZONE_TYPES: ReadonlySet<string> = new Set(['full', 'partial', 'secondary', 'internal'])

/**
 * `type`: one zone type or several, comma-separated or repeated (the SDK repeats the parameter).
 * Without it, internal zones are left out, as Cloudflare does.
 */
function typeFilter(values: readonly string[], params: unknown[]): string {
  const types = [...new Set(values.flatMap((v) => v.split(',')).map((t) => t.trim()))].filter(
    (t) => t !== ''
  )
  if (types.length === 0) return "z.type != 'internal'"
  const unknown = types.find((t) => !ZONE_TYPES.has(t))
  if (unknown !== undefined)
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `type must be one or more (comma-separated) of ${[...ZONE_TYPES].join(', ')}; got ${JSON.stringify(unknown)}`
    )
  if (types.length === 1) {
    params.push(types[0])
    return `z.type = ?${params.length}`
  }
  params.push(JSON.stringify(types))
  return `z.type IN (SELECT value FROM json_each(?${params.length}))`
}

/** Permissions that make a zone visible in the list. */
const LIST_PERMISSIONS = ['zone:read', 'dns:read', 'zone:edit'] as const

function visibility(p: Principal, params: unknown[]): string {
  if (p.admin) return '1'
  const grants = p.grants.filter((g) => LIST_PERMISSIONS.some((perm) => g.permissions.has(perm)))
  if (grants.some((g) => g.everything)) return '1'
  const accounts = [...new Set(grants.flatMap((g) => [...g.accounts]))]
  const zones = [...new Set(grants.flatMap((g) => [...g.zones]))]
  // The usual account token: one equality, so the account's zones are one range of `zones_account`.
  if (zones.length === 0 && accounts.length === 1) {
    params.push(accounts[0])
    return `z.account_id = ?${params.length}`
  }
  params.push(JSON.stringify(accounts), JSON.stringify(zones))
  return `(z.account_id IN (SELECT value FROM json_each(?${params.length - 1})) OR z.id IN (SELECT value FROM json_each(?${params.length})))`
}

function nameFilter(raw: string, params: unknown[]): string {
  const m = /^([a-z_]+):(.*)$/.exec(raw)
  const opRaw =
    m && NAME_OPS.includes(m[1]!.replace('_case_sensitive', '') as (typeof NAME_OPS)[number])
      ? m[1]!
      : 'equal'
  const value = (m && opRaw === m[1] ? m[2]! : raw).toLowerCase().replace(/\.$/, '')
  params.push(value)
  const v = `?${params.length}`
  switch (opRaw.replace('_case_sensitive', '')) {
    case 'not_equal':
      return `z.name != ${v}`
    case 'starts_with':
      // The range lets an index on name seek to the prefix; substr keeps the test exact.
      return `z.name >= ${v} AND z.name < ${v} || char(1114111) AND substr(z.name, 1, length(${v})) = ${v}`
    case 'ends_with':
      // An empty suffix ends every name, as an empty prefix starts one (substr(x, -0) is all of x).
      return `(${v} = '' OR substr(z.name, -length(${v})) = ${v})`
    case 'contains':
      return `instr(z.name, ${v}) > 0`
    default:
      return `z.name = ${v}`
  }
}

/**
 * The query of `GET /zones`. `q` reads a parameter (its last value); `types` are every value of
 * `type`, which may be repeated (when not given, the one `q` reads).
 */
export function zoneListQuery(
  p: Principal,
  q: (key: string) => string | undefined,
  types?: readonly string[]
): ZoneListQuery {
  const params: unknown[] = []
  // A zone an account move is copying to another shard is listed once, from the shard it is on
  // (a term of its own: `status != 'deleted'` is what lets the partial name index serve the list).
  const where = ["z.status != 'deleted'", "z.status != 'copying'", visibility(p, params)]
  const order = q('order') ?? 'name'
  const column = ORDER_COLUMNS.get(order)
  if (column === undefined) {
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `order must be one of ${[...ORDER_COLUMNS.keys()].join(', ')}; got ${JSON.stringify(order)}`
    )
  }
  const rawDirection = q('direction') || 'asc'
  const direction = DIRECTIONS.get(rawDirection)
  if (direction === undefined) {
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `direction must be one of asc, desc; got ${JSON.stringify(rawDirection)}`
    )
  }
  const type = q('type')
  where.push(typeFilter(types ?? (type === undefined ? [] : [type]), params))
  // `match`: all (each filter a term of its own, as the indexed plans expect) or any of them.
  const match = q('match') || 'all'
  if (match !== 'all' && match !== 'any')
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `match must be one of all, any; got ${JSON.stringify(match)}`
    )
  const filters: string[] = []
  const name = q('name')
  if (name !== undefined && name !== '') filters.push(nameFilter(name, params))
  for (const [key, col] of [
    ['status', 'z.status'],
    ['account.id', 'z.account_id'],
    ['account.name', 'a.name'],
  ] as const) {
    const v = q(key)
    // An empty status is not given, as an empty name or type is.
    if (v !== undefined && !(key === 'status' && v === '')) {
      if (key === 'status' && !ZONE_STATUSES.has(v))
        throw ApiError.badRequest(
          Codes.invalidRequest,
          `status must be one of ${[...ZONE_STATUSES].join(', ')}; got ${JSON.stringify(v)}`
        )
      params.push(v)
      filters.push(`${col} = ?${params.length}`)
    }
  }
  if (match === 'any' && filters.length > 1)
    where.push(`(${filters.map((f) => `(${f})`).join(' OR ')})`)
  else where.push(...filters)
  const raw = q('cursor')
  const continued = raw !== undefined && raw !== ''
  if (continued) {
    const [cOrder, cDirection, sort, last] = decodeCursor(raw)
    if (cOrder !== order || cDirection !== direction)
      throw ApiError.badRequest(
        Codes.invalidRequest,
        'cursor belongs to another order or direction: repeat the order and direction of the request that returned it'
      )
    const cmp = direction === 'ASC' ? '>' : '<'
    params.push(last)
    const n = `?${params.length}`
    if (column === 'z.name') where.push(`z.name ${cmp} ${n}`)
    else {
      params.push(sort)
      const v = `?${params.length}`
      where.push(`(${column} ${cmp} ${v} OR (${column} = ${v} AND z.name ${cmp} ${n}))`)
    }
  }
  return {
    where: where.join(' AND '),
    orderBy:
      column === 'z.name' ? `z.name ${direction}` : `${column} ${direction}, z.name ${direction}`,
    direction,
    params,
    continued,
    cursorAfter: (row) => encodeCursor([order, direction, row.sort, row.name]),
    sortColumn: column,
    readsAccount: q('account.name') !== undefined,
  }
}
