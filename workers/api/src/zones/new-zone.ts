/**
 * @module A new zone's row: every default a zone starts with (SOA timers, NS TTL, the name servers
 * and the SOA names derived from them), in one place. A secondary zone starts not loaded
 * (`secondary_expired`): it answers SERVFAIL until its first transfer commits.
 */
import { reverseName } from '../records/model.ts'
import type { ZoneRow } from './model.ts'

export interface NewZone {
  id: string
  accountId: string
  name: string
  type: ZoneRow['type']
  /** The name servers the platform assigns (`NAME_SERVERS`); the first is the SOA MNAME. */
  nameServers: string[]
  proxyIpv4: string[]
  proxyIpv6: string[]
  /** Pending until its owner proves control of the name; else active at once. */
  pending: boolean
  verificationKey: string
  now: string
}

export function newZoneRow(z: NewZone): ZoneRow {
  const primary = z.nameServers[0]!
  return {
    id: z.id,
    accountId: z.accountId,
    name: z.name,
    nameRev: reverseName(z.name),
    status: z.pending ? 'pending' : 'active',
    type: z.type,
    paused: false,
    dnssec: null,
    nameServers: JSON.stringify(z.nameServers),
    vanityNameServers: '[]',
    soaMname: primary,
    soaRname: `dns.${primary.split('.').slice(1).join('.') || primary}`,
    soaRefresh: 10000,
    soaRetry: 2400,
    soaExpire: 604800,
    soaMinimum: 1800,
    soaTtl: 3600,
    nsTtl: 86400,
    proxyIpv4: JSON.stringify(z.proxyIpv4),
    proxyIpv6: JSON.stringify(z.proxyIpv6),
    serial: Math.floor(Date.parse(z.now) / 1000),
    version: 0,
    changeSeq: 1,
    createdOn: z.now,
    modifiedOn: z.now,
    activatedOn: z.pending ? null : z.now,
    verificationKey: z.verificationKey,
    // A secondary zone is not answered (as an expired one) until its first transfer commits.
    secondaryExpired: z.type === 'secondary',
    // Nor does it hold a copy of a primary's zone (transfers/held-copy.ts).
    secondarySerial: null,
    secondaryCheckedOn: null,
    secondarySource: null,
    secondarySkipped: null,
  }
}
