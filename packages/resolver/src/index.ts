/**
 * @module Pure authoritative DNS resolution over a ZoneView (no Workers, no wire format).
 */
export { resolve, MAX_CNAME_HOPS } from './resolve.ts'
export { PROXIED_TTL } from './proxied.ts'
export { DEFAULT_NS_TTL, DNSKEY_TTL, dnssecInEffect, negativeSoa, soaRdata } from './apex.ts'
export { MAX_GLUE_LOOKUPS } from './referral.ts'
export type * from './types.ts'
