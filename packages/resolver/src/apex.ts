/**
 * @module The zone apex as a node: stored apex sets plus SOA and NS built from zone metadata.
 */
import type { NodeData, RRSetData, ZoneMeta } from '@edgedns/kv-layout'
import type { RR } from './types.ts'
import { TYPE_CODES, fqdn } from '@edgedns/dns-facts'
import { dnskeyRdata, parentSignals } from './cds.ts'

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
const signedApexCache = new WeakMap<ZoneMeta, NodeData>()

/** TTL of the DNSKEY set published from `ZoneMeta.dnssec`. */
export const DNSKEY_TTL = 3600

/** Whether the zone's keys are published and sign answers at `nowMs` (a disable ends at `until`). */
export function dnssecInEffect(zone: ZoneMeta, nowMs = Date.now()): boolean {
  const d = zone.dnssec
  return d !== undefined && d.keys.length > 0 && (d.until === undefined || nowMs < d.until * 1000)
}

/**
 * Apex sets including SOA (always from metadata), NS (stored set, else `zone.ns`) and, while the
 * zone is signed, DNSKEY (its combined signing keys: flags 257, protocol 3, algorithm 13) with the
 * CDS and CDNSKEY that tell the parent its DS set (cds.ts).
 */
export function apexNode(zone: ZoneMeta): NodeData {
  if (dnssecInEffect(zone)) {
    const signed = signedApexCache.get(zone)
    if (signed) return signed
    const base = unsignedApex(zone)
    const keys = zone.dnssec!.keys.map((k) => dnskeyRdata(k.publicKey))
    const node: NodeData = {
      v: 1,
      sets: {
        ...base.sets,
        DNSKEY: { ttl: DNSKEY_TTL, rdata: keys },
        ...parentSignals(zone, DNSKEY_TTL),
      },
    }
    signedApexCache.set(zone, node)
    return node
  }
  return unsignedApex(zone)
}

function unsignedApex(zone: ZoneMeta): NodeData {
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
