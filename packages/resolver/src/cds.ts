/**
 * @module CDS and CDNSKEY at a signed zone's apex (RFC 7344, RFC 8078): the DS set the parent
 * should hold, for registries that scan for it. While the zone signs, one CDS (SHA-256 digest)
 * and one CDNSKEY per key, so a rollover's new key reaches the parent and the old one leaves it;
 * while a disable waits out cached DS, the delete signal (`0 0 0 00`, `0 3 0 AA==`), so the parent
 * drops the DS before signing ends.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { dsDigestInput } from '@edgedns/dns-wire'
import type { RRSetData, ZoneMeta } from '@edgedns/kv-layout'

const ALGORITHM = 13
const DIGEST_SHA256 = 2
/** A key as its DNSKEY (and CDNSKEY) rdata: a combined signing key, flags 257, protocol 3. */
export const dnskeyRdata = (publicKey: string): string => `257 3 ${ALGORITHM} ${publicKey}`

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()

/** The CDS and CDNSKEY sets of a zone whose keys are published (`dnssecInEffect`), with `ttl`. */
export function parentSignals(zone: ZoneMeta, ttl: number): Record<'CDS' | 'CDNSKEY', RRSetData> {
  const dnssec = zone.dnssec!
  if (dnssec.until !== undefined)
    return { CDS: { ttl, rdata: ['0 0 0 00'] }, CDNSKEY: { ttl, rdata: ['0 3 0 AA=='] } }
  return {
    CDS: {
      ttl,
      rdata: dnssec.keys.map((k) => {
        const digest = sha256(dsDigestInput(zone.name, dnskeyRdata(k.publicKey)))
        return `${k.tag} ${ALGORITHM} ${DIGEST_SHA256} ${hex(digest)}`
      }),
    },
    CDNSKEY: {
      ttl,
      rdata: dnssec.keys.map((k) => dnskeyRdata(k.publicKey)),
    },
  }
}
