/**
 * @module The zone apex as a node: stored apex sets plus SOA and NS built from zone metadata.
 */
import type { NodeData, RRSetData, ZoneMeta } from '@edgedns/kv-layout'
import type { RR } from './types.ts'
import { TYPE_CODES, fqdn } from '@edgedns/dns-facts'

/** TTL of apex NS records synthesised from `ZoneMeta.ns` when the apex stores no NS set. */
export const DEFAULT_NS_TTL = 86400

export function soaRdata(zone: ZoneMeta): string {
  const s = zone.soa
  return [fqdn(s.mname), fqdn(s.rname), zone.serial, s.refresh, s.retry, s.expire, s.minimum].join(
    ' '
  )
}

/** The SOA for negative answers: TTL = min(SOA TTL, SOA minimum) (RFC 2308 §5). */
export function negativeSoa(zone: ZoneMeta): RR {
  const ttl = Math.min(zone.soa.ttl, zone.soa.minimum)
  return { name: zone.name, type: TYPE_CODES.SOA, ttl, rdata: soaRdata(zone) }
}

const apexCache = new WeakMap<ZoneMeta, NodeData>()

/** Apex sets including SOA (always from metadata) and NS (stored set, else `zone.ns`). */
export function apexNode(zone: ZoneMeta): NodeData {
  const cached = apexCache.get(zone)
  if (cached) return cached
  const sets: Record<string, RRSetData> = { ...zone.apex.sets }
  sets.SOA = { ttl: zone.soa.ttl, rdata: [soaRdata(zone)] }
  if (!sets.NS && zone.ns.length > 0) {
    sets.NS = { ttl: DEFAULT_NS_TTL, rdata: zone.ns.map(fqdn) }
  }
  const node: NodeData = { v: 1, sets }
  apexCache.set(zone, node)
  return node
}
