/**
 * @module Client addresses of zone transfers and NOTIFY: one spelling for comparison (IPv4-mapped
 * IPv6 as IPv4), equality, and membership of a CIDR range.
 */
import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** The address in one form for comparison, or null when `text` is not an address. */
export function parseAddress(text: string): Address | null {
  try {
    const a = ipaddr.parse(text.trim())
    return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()
      ? (a as ipaddr.IPv6).toIPv4Address()
      : a
  } catch {
    return null
  }
}

/** Whether `a` and `b` are the same address, however each is spelled. */
export function sameAddress(a: string, b: string): boolean {
  const x = parseAddress(a)
  const y = parseAddress(b)
  return (
    x !== null &&
    y !== null &&
    x.kind() === y.kind() &&
    x.toNormalizedString() === y.toNormalizedString()
  )
}

/** Whether `client` lies in the CIDR range `cidr` (false for a range that does not parse). */
export function inRange(client: Address, cidr: string): boolean {
  try {
    const [range, bits] = ipaddr.parseCIDR(cidr.trim())
    return client.kind() === range.kind() && client.match(range, bits)
  } catch {
    return false
  }
}
