/**
 * @module The one table of DNS resource-record types: mnemonic, IANA code (RFC 6895 registry),
 * whether the records API accepts it, and the kind of rdata it carries. Every other package
 * derives its type lists and codes from this table.
 */

/**
 * The shape of a type's rdata in presentation and wire form. `opaque`: a data type we know by
 * name but have no presentation codec for (RFC 3597 `\# len hex` only). `meta`: not a data type
 * (OPT, query-only types such as AXFR and ANY).
 */
export type RdataKind =
  | 'a'
  | 'aaaa'
  | 'name'
  | 'name-uncompressed'
  | 'soa'
  | 'hinfo'
  | 'mx'
  | 'txt'
  | 'loc'
  | 'srv'
  | 'naptr'
  | 'cert'
  | 'ds'
  | 'sshfp'
  | 'dnskey'
  | 'tlsa'
  | 'openpgpkey'
  | 'svcb'
  | 'uri'
  | 'caa'
  | 'opaque'
  | 'meta'

export interface RRTypeFact {
  readonly name: string
  readonly code: number
  /** The records API accepts it (Cloudflare's list of record types). */
  readonly api: boolean
  readonly rdata: RdataKind
}

/** Ascending by code. Adding a type: one line here, then its module in `@edgedns/records`. */
export const RR_TYPES = [
  { name: 'A', code: 1, api: true, rdata: 'a' },
  { name: 'NS', code: 2, api: true, rdata: 'name' },
  { name: 'CNAME', code: 5, api: true, rdata: 'name' },
  { name: 'SOA', code: 6, api: false, rdata: 'soa' },
  { name: 'PTR', code: 12, api: true, rdata: 'name' },
  { name: 'HINFO', code: 13, api: false, rdata: 'hinfo' },
  { name: 'MX', code: 15, api: true, rdata: 'mx' },
  { name: 'TXT', code: 16, api: true, rdata: 'txt' },
  { name: 'RP', code: 17, api: false, rdata: 'opaque' },
  { name: 'AFSDB', code: 18, api: false, rdata: 'opaque' },
  { name: 'AAAA', code: 28, api: true, rdata: 'aaaa' },
  { name: 'LOC', code: 29, api: true, rdata: 'loc' },
  { name: 'SRV', code: 33, api: true, rdata: 'srv' },
  { name: 'NAPTR', code: 35, api: true, rdata: 'naptr' },
  { name: 'KX', code: 36, api: false, rdata: 'opaque' },
  { name: 'CERT', code: 37, api: true, rdata: 'cert' },
  { name: 'DNAME', code: 39, api: false, rdata: 'name-uncompressed' },
  { name: 'OPT', code: 41, api: false, rdata: 'meta' },
  { name: 'APL', code: 42, api: false, rdata: 'opaque' },
  { name: 'DS', code: 43, api: true, rdata: 'ds' },
  { name: 'SSHFP', code: 44, api: true, rdata: 'sshfp' },
  { name: 'IPSECKEY', code: 45, api: false, rdata: 'opaque' },
  { name: 'RRSIG', code: 46, api: false, rdata: 'opaque' },
  { name: 'NSEC', code: 47, api: false, rdata: 'opaque' },
  { name: 'DNSKEY', code: 48, api: true, rdata: 'dnskey' },
  { name: 'DHCID', code: 49, api: false, rdata: 'opaque' },
  { name: 'NSEC3', code: 50, api: false, rdata: 'opaque' },
  { name: 'NSEC3PARAM', code: 51, api: false, rdata: 'opaque' },
  { name: 'TLSA', code: 52, api: true, rdata: 'tlsa' },
  { name: 'SMIMEA', code: 53, api: true, rdata: 'tlsa' },
  { name: 'HIP', code: 55, api: false, rdata: 'opaque' },
  { name: 'CDS', code: 59, api: false, rdata: 'ds' },
  { name: 'CDNSKEY', code: 60, api: false, rdata: 'dnskey' },
  { name: 'OPENPGPKEY', code: 61, api: true, rdata: 'openpgpkey' },
  { name: 'CSYNC', code: 62, api: false, rdata: 'opaque' },
  { name: 'ZONEMD', code: 63, api: false, rdata: 'opaque' },
  { name: 'SVCB', code: 64, api: true, rdata: 'svcb' },
  { name: 'HTTPS', code: 65, api: true, rdata: 'svcb' },
  { name: 'SPF', code: 99, api: false, rdata: 'txt' },
  { name: 'NID', code: 104, api: false, rdata: 'opaque' },
  { name: 'L32', code: 105, api: false, rdata: 'opaque' },
  { name: 'L64', code: 106, api: false, rdata: 'opaque' },
  { name: 'LP', code: 107, api: false, rdata: 'opaque' },
  { name: 'EUI48', code: 108, api: false, rdata: 'opaque' },
  { name: 'EUI64', code: 109, api: false, rdata: 'opaque' },
  /** RFC 9824: only in the type bitmap of a compact-denial NSEC ("this name does not exist"). */
  { name: 'NXNAME', code: 128, api: false, rdata: 'meta' },
  { name: 'TKEY', code: 249, api: false, rdata: 'meta' },
  { name: 'TSIG', code: 250, api: false, rdata: 'meta' },
  { name: 'IXFR', code: 251, api: false, rdata: 'meta' },
  { name: 'AXFR', code: 252, api: false, rdata: 'meta' },
  { name: 'MAILB', code: 253, api: false, rdata: 'meta' },
  { name: 'MAILA', code: 254, api: false, rdata: 'meta' },
  { name: 'ANY', code: 255, api: false, rdata: 'meta' },
  { name: 'URI', code: 256, api: true, rdata: 'uri' },
  { name: 'CAA', code: 257, api: true, rdata: 'caa' },
] as const satisfies readonly RRTypeFact[]

type Entry = (typeof RR_TYPES)[number]

/** Every type mnemonic in the table. */
export type TypeName = Entry['name']

/** The types the records API accepts. */
export type ApiType = Extract<Entry, { api: true }>['name']

/** Mnemonic → code, for every type in the table. */
export const TYPE_CODES = Object.freeze(
  Object.fromEntries(RR_TYPES.map((t) => [t.name, t.code]))
) as { readonly [E in Entry as E['name']]: E['code'] }

/** The API's types in Cloudflare's (alphabetical) enum order. */
export const API_TYPES: readonly ApiType[] = Object.freeze(
  RR_TYPES.filter((t): t is Extract<Entry, { api: true }> => t.api)
    .map((t) => t.name)
    .sort()
)

/** Codes below this (and above 127) are the meta/question-only range (RFC 6895 §3.1). */
export const META_TYPES_FIRST = 128

const BY_CODE = new Map<number, RRTypeFact>(RR_TYPES.map((t) => [t.code, t]))
const BY_NAME = new Map<string, RRTypeFact>(RR_TYPES.map((t) => [t.name, t]))

/** The table's entry for a code, if any. */
export function typeFact(code: number): RRTypeFact | undefined {
  return BY_CODE.get(code)
}

/** True when `name` is a mnemonic in the table (exact, upper case). */
export function isTypeName(name: string): name is TypeName {
  return BY_NAME.has(name)
}

/** Mnemonic for a type code, or `TYPE<n>` (RFC 3597) when it has none. */
export function typeName(code: number): string {
  return BY_CODE.get(code)?.name ?? `TYPE${code}`
}

/** Type code for 'AAAA', 'aaaa', '28' or 'TYPE28'; undefined when not a type. */
export function typeFromName(text: string): number | undefined {
  const upper = text.trim().toUpperCase()
  const known = BY_NAME.get(upper)
  if (known) return known.code
  const m = /^(?:TYPE)?(\d{1,5})$/.exec(upper)
  if (!m) return undefined
  const n = Number(m[1])
  return n <= 0xffff ? n : undefined
}
