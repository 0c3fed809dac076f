/**
 * @module RR type and RCODE tables: mnemonic ↔ number, RFC 3597 `TYPEnnn` names.
 */

export const TYPE_CODES = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AAAA: 28,
  LOC: 29,
  SRV: 33,
  NAPTR: 35,
  CERT: 37,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  IXFR: 251,
  AXFR: 252,
  ANY: 255,
  URI: 256,
  CAA: 257,
} as const

export type TypeName = keyof typeof TYPE_CODES

const NAMES = new Map<number, string>(Object.entries(TYPE_CODES).map(([n, c]) => [c, n]))

/** Mnemonic for a type code, or `TYPE<n>` (RFC 3597) when it has none. */
export function typeName(code: number): string {
  return NAMES.get(code) ?? `TYPE${code}`
}

/** Type code for 'AAAA', 'aaaa', '28' or 'TYPE28'; undefined when not a type. */
export function typeFromName(text: string): number | undefined {
  const upper = text.trim().toUpperCase()
  if (Object.hasOwn(TYPE_CODES, upper)) return TYPE_CODES[upper as TypeName]
  const m = /^(?:TYPE)?(\d{1,5})$/.exec(upper)
  if (!m) return undefined
  const n = Number(m[1])
  return n <= 0xffff ? n : undefined
}

export const CLASS_IN = 1
export const CLASS_ANY = 255

export const RCODES = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  BADVERS: 16,
} as const

export type RcodeName = keyof typeof RCODES

export function rcodeValue(rcode: RcodeName | number): number {
  return typeof rcode === 'number' ? rcode : RCODES[rcode]
}
