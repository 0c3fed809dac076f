/**
 * @module Which methods a /client/v4 path is served with, from the operations the OpenAPI document
 * lists: the answer's `Allow` header when a known path is asked with another method (405).
 */
import { ApiError, Codes } from '../http/api-error.ts'
import { OPERATIONS } from './operations.ts'

interface PathMethods {
  pattern: RegExp
  /** Literal segments: where templates overlap (`…/batch` and `…/{record_id}`), the most literal one wins. */
  literals: number
  methods: Set<string>
}

let table: PathMethods[] | null = null

function build(): PathMethods[] {
  const byTemplate = new Map<string, Set<string>>()
  for (const op of OPERATIONS) {
    const methods = byTemplate.get(op.path) ?? new Set<string>()
    methods.add(op.method.toUpperCase())
    if (op.method === 'get') methods.add('HEAD')
    byTemplate.set(op.path, methods)
  }
  return [...byTemplate].map(([template, methods]) => ({
    // A trailing slash is another path (`/zones/` is no route, whatever the method), as Hono routes it.
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
    methods,
  }))
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** Methods served at `path` (relative to /client/v4), in a stable order; empty when no route has that path. */
function allowedMethods(path: string): string[] {
  table ??= build()
  const matches = table.filter((row) => row.pattern.test(path))
  const best = Math.max(...matches.map((row) => row.literals))
  const all = new Set(
    matches.filter((row) => row.literals === best).flatMap((row) => [...row.methods])
  )
  return ORDER.filter((m) => all.has(m))
}

/**
 * The 405 for `method` at `path` (the full /client/v4 path) when some route has that path but
 * not that method, else null. Asked before routing: a literal path such as `…/dns_records/batch`
 * asked with a method it lacks would otherwise reach `…/dns_records/{record_id}` (400, bad id).
 */
export function methodRefusal(method: string, path: string): ApiError | null {
  const allow = allowedMethods(path.slice('/client/v4'.length))
  if (allow.length === 0 || allow.includes(method)) return null
  return new ApiError(
    405,
    Codes.methodNotAllowed,
    `Method ${method} is not allowed on ${path}; allowed: ${allow.join(', ')}`,
    { headers: { allow: allow.join(', ') } }
  )
}
