/**
 * @module CDS and CDNSKEY at a signed zone's apex (RFC 7344, RFC 8078): the DS set the parent
 * should hold, for registries that scan for it. While the zone signs, one CDS (SHA-256 digest)
 * and one CDNSKEY per key, so a rollover's new key reaches the parent and the old one leaves it;
 * while a disable waits out cached DS, the delete signal (`0 0 0 00`, `0 3 0 AA==`), so the parent
 * drops the DS before signing ends.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import type { RRSetData, ZoneMeta } from '@edgedns/kv-layout'

const ALGORITHM = 13
const DIGEST_SHA256 = 2
const FLAGS = 257
const PROTOCOL = 3

/** The zone name in canonical wire form (lowercase letters, digits, `-`, `_`). */
function ownerWire(name: string): number[] {
  const out: number[] = []
  for (const label of name === '' ? [] : name.toLowerCase().split('.')) {
    out.push(label.length)
    for (let i = 0; i < label.length; i++) out.push(label.charCodeAt(i))
  }
  out.push(0)
  return out
}

function dnskeyWire(publicKey: string): number[] {
  const key = atob(publicKey)
  const out = [FLAGS >> 8, FLAGS & 0xff, PROTOCOL, ALGORITHM]
  for (let i = 0; i < key.length; i++) out.push(key.charCodeAt(i))
  return out
}

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()

/** The CDS and CDNSKEY sets of a zone whose keys are published (`dnssecInEffect`), with `ttl`. */
export function parentSignals(zone: ZoneMeta, ttl: number): Record<'CDS' | 'CDNSKEY', RRSetData> {
  const dnssec = zone.dnssec!
  if (dnssec.until !== undefined)
    return { CDS: { ttl, rdata: ['0 0 0 00'] }, CDNSKEY: { ttl, rdata: ['0 3 0 AA=='] } }
  const owner = ownerWire(zone.name)
  return {
    CDS: {
      ttl,
      rdata: dnssec.keys.map((k) => {
        const digest = sha256(Uint8Array.from([...owner, ...dnskeyWire(k.publicKey)]))
        return `${k.tag} ${ALGORITHM} ${DIGEST_SHA256} ${hex(digest)}`
      }),
    },
    CDNSKEY: {
      ttl,
      rdata: dnssec.keys.map((k) => `${FLAGS} ${PROTOCOL} ${ALGORITHM} ${k.publicKey}`),
    },
  }
}
