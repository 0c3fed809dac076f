/** @module proxy: which records can be proxied (orange-clouded). */
import type { RecordType } from './record-type.ts'

/** Types that Cloudflare can proxy. */
export const PROXIABLE_TYPES: ReadonlySet<RecordType> = new Set<RecordType>(['A', 'AAAA', 'CNAME'])

/**
 * Server-computed `proxiable` flag. True exactly for A, AAAA and CNAME records: Cloudflare reports
 * proxiable by type, and content has already been validated by normalizeContent, so a stored
 * A/AAAA/CNAME is always a usable proxy origin. `content` is kept for future content rules.
 */
export function isProxiable(type: RecordType, content: string): boolean {
  return PROXIABLE_TYPES.has(type) && content !== ''
}
