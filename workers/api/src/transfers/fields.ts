/**
 * @module Field rules shared by the zone-transfer configuration: DNS names, addresses, CIDR
 * ranges and lists of ids, as zod schemas whose messages name what is wrong.
 */
import { canonicalIPv6, isIPv4, normalizeHostname, RecordError } from '@edgedns/records'
import ipaddr from 'ipaddr.js'
import { z } from 'zod'

/** A 32-hex id (TSIG key, peer, ACL), lower case. */
export const idSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'must be an id of 32 lowercase hexadecimal characters')

/** A domain name: lower case, no final dot (IDNs in Punycode). */
export const domainNameSchema = z.string().transform((value, ctx) => {
  try {
    const name = normalizeHostname(value)
    if (name !== '.') return name
    ctx.addIssue({ code: 'custom', message: 'must be a domain name, not the root' })
  } catch (e) {
    if (!(e instanceof RecordError)) throw e
    ctx.addIssue({ code: 'custom', message: `is not a valid domain name: ${e.message}` })
  }
  return z.NEVER
})

/** An address in canonical text: dotted-quad IPv4, or IPv6 as RFC 5952 writes it; else null. */
function canonicalIp(value: string): string | null {
  if (isIPv4(value)) return value
  return canonicalIPv6(value)
}

/** Address ranges no DNS server is reached at (ipaddr.js's names), with why. */
const UNREACHABLE: Record<string, string> = {
  unspecified: 'is the unspecified address',
  multicast: 'is a multicast address',
  broadcast: 'is the broadcast address',
  linkLocal: 'is a link-local address',
}

/** A peer's address: a unicast address a transfer can be made with (loopback and private ranges included, for servers on the same host or network as the DNS front). */
export const ipSchema = z.string().transform((value, ctx) => {
  const ip = canonicalIp(value)
  if (ip === null) {
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(value)} is not an IPv4 or IPv6 address`,
    })
    return z.NEVER
  }
  const parsed = ipaddr.process(ip)
  const why = UNREACHABLE[parsed.range()]
  if (why === undefined) return ip
  ctx.addIssue({ code: 'custom', message: `${ip} ${why}: a peer needs a unicast address` })
  return z.NEVER
})

/**
 * A CIDR range in canonical form: the network address (host bits cleared) and the prefix length;
 * a bare address is its own range (/32, /128).
 */
function canonicalCidr(value: string): string | null {
  const slash = value.indexOf('/')
  const address = slash === -1 ? value : value.slice(0, slash)
  const ip = canonicalIp(address)
  if (ip === null) return null
  const v4 = isIPv4(ip)
  const max = v4 ? 32 : 128
  const prefixText = slash === -1 ? String(max) : value.slice(slash + 1)
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText) || Number(prefixText) > max) return null
  const prefix = Number(prefixText)
  const network = v4
    ? ipaddr.IPv4.networkAddressFromCIDR(`${ip}/${prefix}`).toString()
    : ipaddr.IPv6.networkAddressFromCIDR(`${ip}/${prefix}`).toRFC5952String()
  return `${network}/${prefix}`
}

export const cidrSchema = z.string().transform((value, ctx) => {
  const range = canonicalCidr(value.trim())
  if (range !== null) return range
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(value)} is not a CIDR range (such as 192.0.2.0/24 or 2001:db8::/32)`,
  })
  return z.NEVER
})

/** Most peers one zone's incoming or outgoing configuration may name. */
const MAX_ZONE_PEERS = 25

/** Peer ids of a zone's configuration: distinct, at most MAX_ZONE_PEERS. */
export const peerIdsSchema = z
  .array(idSchema)
  .max(MAX_ZONE_PEERS, `at most ${MAX_ZONE_PEERS} peers`)
  .refine((ids) => new Set(ids).size === ids.length, 'names the same peer twice')

/** A stored JSON list of ids (the `peers` of transfer settings); an unreadable value names none. */
export function parseIds(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

/** A row's fields without those that are null (the SDK types them optional, never null). */
export function withoutNulls(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined))
}
