/**
 * @module DNS type and rcode tables the DoH client needs.
 */
export const TYPES: Record<string, number> = {
  A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, HINFO: 13, MX: 15, TXT: 16, AAAA: 28, LOC: 29, SRV: 33,
  NAPTR: 35, CERT: 37, DNAME: 39, OPT: 41, DS: 43, SSHFP: 44, RRSIG: 46, NSEC: 47, DNSKEY: 48,
  TLSA: 52, SMIMEA: 53, OPENPGPKEY: 61, SVCB: 64, HTTPS: 65, SPF: 99, ANY: 255, URI: 256, CAA: 257,
}

const NAMES = new Map(Object.entries(TYPES).map(([k, v]) => [v, k]))

export function typeCode(type: string | number): number {
  if (typeof type === 'number') return type
  const upper = type.toUpperCase()
  const known = TYPES[upper]
  if (known !== undefined) return known
  const m = /^TYPE(\d{1,5})$/.exec(upper)
  if (m && Number(m[1]) <= 65535) return Number(m[1])
  throw new RangeError(`unknown DNS type ${JSON.stringify(type)}`)
}

export function typeName(code: number): string {
  return NAMES.get(code) ?? `TYPE${code}`
}

export const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE']

export function rcodeName(code: number): string {
  return RCODES[code] ?? `RCODE${code}`
}
