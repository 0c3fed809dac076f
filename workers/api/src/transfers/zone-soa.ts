/** @module A transfer's SOA record as the SOA settings the zone row keeps (transfer-commit.ts). */
import type { MessageRR } from '@edgedns/dns-wire'

/** The SOA fields the zone row keeps. */
interface ZoneSoa {
  mname: string
  rname: string
  serial: number
  refresh: number
  retry: number
  expire: number
  minimum: number
  ttl: number
}

/** The zone's SOA settings from the primary's SOA record. */
export function zoneSoaOf(soa: MessageRR): ZoneSoa {
  const p = soa.data.trim().split(/\s+/)
  const name = (s: string) => s.toLowerCase().replace(/\.$/, '')
  const n = (i: number) => Number(p[i]) >>> 0
  return {
    mname: name(p[0]!),
    rname: name(p[1]!),
    serial: n(2),
    refresh: n(3),
    retry: n(4),
    expire: n(5),
    minimum: n(6),
    ttl: soa.ttl,
  }
}
