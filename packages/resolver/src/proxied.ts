/**
 * @module Proxied names answer A/AAAA with the zone's proxy addresses instead of their records.
 */
import type { NodeData, ZoneMeta } from '@edgedns/kv-layout'
import { TYPE_CODES } from '@edgedns/dns-facts'
import { setOf } from './rrset.ts'
import type { RR } from './types.ts'

/** TTL of answers built from proxy addresses (Cloudflare answers proxied records with 300). */
export const PROXIED_TTL = 300

export function isProxiedName(node: NodeData): boolean {
  return [TYPE_CODES.A, TYPE_CODES.AAAA, TYPE_CODES.CNAME].some(
    (t) => setOf(node, t)?.proxied === true
  )
}

export function isProxiedCname(node: NodeData): boolean {
  return setOf(node, TYPE_CODES.CNAME)?.proxied === true
}

/**
 * Address records for an A or AAAA question at a proxied name. A non-proxied set of the asked
 * type is answered as stored; otherwise the zone's proxy addresses of that family (so a proxied
 * A-only name also answers AAAA, like Cloudflare's IPv6 compatibility). Empty when the zone has
 * no proxy address of that family.
 */
export function proxiedAnswer(zone: ZoneMeta, node: NodeData, owner: string, qtype: number): RR[] {
  const own = setOf(node, qtype)
  if (own && !own.proxied) {
    return own.rdata.map((rdata) => ({ name: owner, type: qtype, ttl: own.ttl, rdata }))
  }
  const addrs = qtype === TYPE_CODES.A ? zone.proxy.ipv4 : zone.proxy.ipv6
  return addrs.map((rdata) => ({ name: owner, type: qtype, ttl: PROXIED_TTL, rdata }))
}
