/**
 * @module The public view of KV values: what of a stored value may leave the server (in a
 * report, a log line, an API response). Zone metadata (`z:<zone>`, and the copy every head slot
 * `h:<zone>:<slot>` carries) holds each DNSSEC key's private key, sealed; the sealed text is
 * replaced by REDACTED. Bucket, node and overlay values hold records only.
 */

/** What stands in for a sealed private key in a public view. */
export const REDACTED = '[redacted]'

/** True for keys whose values carry zone metadata (and so the zone's sealed keys). */
export function holdsZoneMeta(key: string): boolean {
  return key.startsWith('z:') || key.startsWith('h:')
}

/**
 * A `"sealed": "…"` member, closed or cut short (a truncated value). In JSON text a quoted
 * `sealed` followed by a colon is always a member name: inside a string its quotes are escaped.
 */
const SEALED_MEMBER = /"sealed"\s*:\s*"(?:[^"\\]|\\.)*"?/g

/**
 * The value stored at `key` as it may be shown: for a key that holds zone metadata, every
 * `sealed` member is replaced by REDACTED (valid JSON stays valid); other values are unchanged.
 */
export function publicValueText(key: string, text: string): string {
  if (!holdsZoneMeta(key)) return text
  return text.replace(SEALED_MEMBER, `"sealed":${JSON.stringify(REDACTED)}`)
}
