/**
 * @module Which methods a /client/v4 path is served with, from the operations the OpenAPI document
 * lists: the answer's `Allow` header when a known path is asked with another method (405).
 */
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
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
    methods,
  }))
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** Methods served at `path` (relative to /client/v4), in a stable order; empty when no route has that path. */
export function allowedMethods(path: string): string[] {
  table ??= build()
  const matches = table.filter((row) => row.pattern.test(path))
  const best = Math.max(...matches.map((row) => row.literals))
  const all = new Set(
    matches.filter((row) => row.literals === best).flatMap((row) => [...row.methods])
  )
  return ORDER.filter((m) => all.has(m))
}
