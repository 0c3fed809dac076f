/**
 * @module `GET /zones` as one SQL page: Cloudflare's filters (name operators, status, account.id,
 * account.name), order/direction and page/per_page, with the token's visibility expressed in SQL.
 * Substring tests use instr/substr, never LIKE (no escaping, no 50-byte pattern cap).
 */
import type { Principal } from '../auth/permissions.ts'
import { ApiError, Codes } from '../http/api-error.ts'

export interface ZoneListQuery {
  /** SQL after `FROM zones z JOIN accounts a ON a.id = z.account_id`: the WHERE clause. */
  where: string
  orderBy: string
  params: unknown[]
}

const ORDER_COLUMNS: Record<string, string> = {
  name: 'z.name',
  status: 'z.status',
  'account.id': 'z.account_id',
  'account.name': 'a.name',
  'plan.id': 'z.name',
}

const NAME_OPS = ['equal', 'not_equal', 'starts_with', 'ends_with', 'contains'] as const

/** Permissions that make a zone visible in the list. */
const LIST_PERMISSIONS = ['zone:read', 'dns:read', 'zone:edit'] as const

function visibility(p: Principal, params: unknown[]): string {
  if (p.admin) return '1'
  const grants = p.grants.filter((g) => LIST_PERMISSIONS.some((perm) => g.permissions.has(perm)))
  if (grants.some((g) => g.everything)) return '1'
  const accounts = [...new Set(grants.flatMap((g) => [...g.accounts]))]
  const zones = [...new Set(grants.flatMap((g) => [...g.zones]))]
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
      return `substr(z.name, 1, length(${v})) = ${v}`
    case 'ends_with':
      return `substr(z.name, -length(${v})) = ${v}`
    case 'contains':
      return `instr(z.name, ${v}) > 0`
    default:
      return `z.name = ${v}`
  }
}

export function zoneListQuery(p: Principal, q: (key: string) => string | undefined): ZoneListQuery {
  const params: unknown[] = []
  const where = ["z.status != 'deleted'", visibility(p, params)]
  const order = q('order') ?? 'name'
  const column = ORDER_COLUMNS[order]
  if (column === undefined) {
    throw ApiError.badRequest(
      Codes.invalidRequest,
      `order must be one of name, status, account.id, account.name; got ${JSON.stringify(order)}`
    )
  }
  const direction = q('direction') === 'desc' ? 'DESC' : 'ASC'
  const name = q('name')
  if (name !== undefined && name !== '') where.push(nameFilter(name, params))
  for (const [key, col] of [
    ['status', 'z.status'],
    ['account.id', 'z.account_id'],
    ['account.name', 'a.name'],
  ] as const) {
    const v = q(key)
    if (v !== undefined) {
      params.push(v)
      where.push(`${col} = ?${params.length}`)
    }
  }
  return {
    where: where.join(' AND '),
    orderBy: `${column} ${direction}, z.name ${direction}`,
    params,
  }
}
