/**
 * @module Canonical wire rdata (RFC 4034 §6.2 as RFC 6840 §5.1 amends it): names embedded in the
 * rdata of NS, CNAME, SOA, PTR, MX, RP, SRV, NAPTR and DNAME are lowercased; other rdata is
 * signed as it is encoded.
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import { encodeRdata } from '@edgedns/dns-wire'

/** Types whose presentation rdata is only names and numbers: lowercasing the text is exact. */
const { NS, CNAME, SOA, PTR, MX, RP, SRV, DNAME, NAPTR } = TYPE_CODES
const NAMES_AND_NUMBERS = new Set<number>([NS, CNAME, SOA, PTR, MX, RP, SRV, DNAME])

function lowerNames(type: number, text: string): string {
  if (NAMES_AND_NUMBERS.has(type)) return text.toLowerCase()
  if (type === NAPTR) {
    // Only the replacement (last field) is a name; flags, services and regexp keep their case.
    const at = text.trimEnd().lastIndexOf(' ')
    return at < 0 ? text : text.slice(0, at + 1) + text.slice(at + 1).toLowerCase()
  }
  return text
}

export function canonicalRdata(type: number, text: string): Uint8Array {
  if (text.startsWith('\\#')) return encodeRdata(type, text)
  return encodeRdata(type, lowerNames(type, text))
}
