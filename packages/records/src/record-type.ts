/**
 * @module record-type: the record types the API accepts and their IANA codes, derived from the
 * type table in `@edgedns/dns-facts` (`api: true` entries).
 */
import { API_TYPES, TYPE_CODES as ALL_TYPE_CODES, type ApiType } from '@edgedns/dns-facts'

export type RecordType = ApiType

/** IANA RR type numbers for every accepted type plus the auto-managed SOA. */
export const TYPE_CODES: Readonly<Record<RecordType | 'SOA', number>> = Object.freeze(
  Object.fromEntries([...API_TYPES, 'SOA' as const].map((t) => [t, ALL_TYPE_CODES[t]]))
) as Record<RecordType | 'SOA', number>

/** All accepted types, in Cloudflare's (alphabetical) enum order. */
export const RECORD_TYPES: readonly RecordType[] = API_TYPES

const TYPE_SET: ReadonlySet<string> = new Set(RECORD_TYPES)

/** True when `s` is one of the 21 accepted type mnemonics (exact, upper case). */
export function isRecordType(s: string): s is RecordType {
  return TYPE_SET.has(s)
}
