/**
 * @module Record list filters → the dotted query parameters the API (and Cloudflare) understand.
 */
import type { Query } from './http.ts'
import type { RecordFilter } from './types.ts'

export function recordQuery(f: RecordFilter): Query {
  const q: Query = {}
  for (const [key, value] of Object.entries(f)) {
    if (value === undefined) continue
    if (typeof value === 'object' && value !== null) {
      for (const [op, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === undefined) continue
        q[`${key}.${op}`] = v === true ? '' : String(v)
      }
    } else q[key] = value as string | number | boolean
  }
  return q
}
