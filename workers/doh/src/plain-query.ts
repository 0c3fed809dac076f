/**
 * @module The DNS message of a GET in the form RFC 8484 clients send, `/dns-query?dns=<base64url>`
 * and nothing else, read from the URL text. Parsing the URL (`new URL`) costs a cached answer more
 * than the rest of its work; any other form is left to it.
 */
import { textAnswerKey } from './answer-cache.ts'
import { decodeBase64Url, maxBase64UrlLength } from './base64url.ts'

const PREFIX = '/dns-query?dns='

export interface PlainQuery {
  bytes: Uint8Array
  /** Its answer-cache key, made from the text (none below a DNS header's 12 bytes). */
  key: string | undefined
}

/**
 * The decoded `dns` parameter when `url` is exactly `<scheme>://<host>/dns-query?dns=<base64url>`
 * and it decodes to at most `maxBytes`; null otherwise (another path or parameter, a fragment,
 * percent-encoding, not base64url, too large), for the general path to answer.
 */
export function plainDnsQuery(url: string, maxBytes: number): PlainQuery | null {
  const scheme = url.indexOf('://')
  if (scheme < 0) return null
  const path = url.indexOf('/', scheme + 3)
  if (path < 0 || !url.startsWith(PREFIX, path)) return null
  const start = path + PREFIX.length
  // Base64url of more than `maxBytes`: the general path answers 413.
  if (url.length - start > maxBase64UrlLength(maxBytes)) return null
  // '&', '#', '%' and '+' are not base64url: such a URL does not decode here.
  const encoded = url.slice(start)
  const bytes = decodeBase64Url(encoded)
  if (!bytes || bytes.length === 0 || bytes.length > maxBytes) return null
  return { bytes, key: bytes.length >= 12 ? textAnswerKey(encoded, bytes) : undefined }
}
