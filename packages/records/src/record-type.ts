/** @module record-type: the 21 record types the API accepts and their IANA type codes. */

export type RecordType =
  | 'A'
  | 'AAAA'
  | 'CAA'
  | 'CERT'
  | 'CNAME'
  | 'DNSKEY'
  | 'DS'
  | 'HTTPS'
  | 'LOC'
  | 'MX'
  | 'NAPTR'
  | 'NS'
  | 'OPENPGPKEY'
  | 'PTR'
  | 'SMIMEA'
  | 'SRV'
  | 'SSHFP'
  | 'SVCB'
  | 'TLSA'
  | 'TXT'
  | 'URI'

/** IANA RR type numbers (RFC 6895 registry) for every accepted type plus the auto-managed SOA. */
export const TYPE_CODES: Readonly<Record<RecordType | 'SOA', number>> = Object.freeze({
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  LOC: 29,
  SRV: 33,
  NAPTR: 35,
  CERT: 37,
  DS: 43,
  SSHFP: 44,
  DNSKEY: 48,
  TLSA: 52,
  SMIMEA: 53,
  OPENPGPKEY: 61,
  SVCB: 64,
  HTTPS: 65,
  URI: 256,
  CAA: 257,
})

/** All accepted types, in Cloudflare's (alphabetical) enum order. */
export const RECORD_TYPES: readonly RecordType[] = Object.freeze([
  'A',
  'AAAA',
  'CAA',
  'CERT',
  'CNAME',
  'DNSKEY',
  'DS',
  'HTTPS',
  'LOC',
  'MX',
  'NAPTR',
  'NS',
  'OPENPGPKEY',
  'PTR',
  'SMIMEA',
  'SRV',
  'SSHFP',
  'SVCB',
  'TLSA',
  'TXT',
  'URI',
] as const)

const TYPE_SET: ReadonlySet<string> = new Set(RECORD_TYPES)

/** True when `s` is one of the 21 accepted type mnemonics (exact, upper case). */
export function isRecordType(s: string): s is RecordType {
  return TYPE_SET.has(s)
}
