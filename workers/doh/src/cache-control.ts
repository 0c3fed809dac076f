/**
 * @module Cache-Control for an answer: smallest answer TTL, negative TTL, or no caching.
 */
import { TYPE_CODES } from '@edgedns/dns-wire'
import type { Resolution } from '@edgedns/resolver'

export const NO_STORE = 'no-store'

/**
 * RFC 8484 §5.1: the freshness lifetime must not exceed the smallest TTL in the answer section.
 * Positive answers: min answer TTL. Negative answers (NXDOMAIN/NODATA): the SOA's TTL in
 * authority, which the resolver already set to min(SOA TTL, SOA minimum) (RFC 2308). Referrals:
 * min TTL of the authority and additional records. Every other rcode (SERVFAIL, REFUSED,
 * FORMERR, NOTIMP, BADVERS) is not cached.
 */
export function cacheControl(
  result: Pick<Resolution, 'answer' | 'authority' | 'additional'> & {
    rcode: string | number
  }
): string {
  if (result.rcode !== 'NOERROR' && result.rcode !== 'NXDOMAIN') return NO_STORE
  if (result.answer.length > 0) return maxAge(result.answer)
  const soa = result.authority.filter((rr) => rr.type === TYPE_CODES.SOA)
  if (soa.length > 0) return maxAge(soa)
  const referral = [...result.authority, ...result.additional]
  return referral.length > 0 ? maxAge(referral) : NO_STORE
}

function maxAge(rrs: { ttl: number }[]): string {
  let min = Infinity
  for (const rr of rrs) min = Math.min(min, rr.ttl)
  return `max-age=${Math.max(0, Math.min(min, 0x7fffffff))}`
}
