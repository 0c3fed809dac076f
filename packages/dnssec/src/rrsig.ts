/**
 * @module RRSIG (RFC 4034 §3, §6): the signed data of an RRset in canonical form and the RRSIG
 * rdata, signed with ECDSA P-256/SHA-256 (the 64-octet r ‖ s WebCrypto returns is the DNSSEC
 * signature format of RFC 6605).
 */
import { genericRdata } from './bytes.ts'
import { canonicalRdata } from './canonical-rdata.ts'
import { ALGORITHM } from './keys.ts'
import { concatBytes, parseName, type Labels } from '@edgedns/dns-wire'
import { canonicalName, rrsigLabels } from './names.ts'
import type { Validity } from './validity.ts'

const CLASS_IN = 1

export interface RRsetToSign {
  /** Owner as it is signed: the wildcard (`*.<encloser>`) for a synthesised answer. */
  owner: string
  type: number
  ttl: number
  rdata: string[]
}

export interface SigningKey {
  tag: number
  key: CryptoKey
}

function u16(v: number): Uint8Array {
  return Uint8Array.of((v >>> 8) & 0xff, v & 0xff)
}

function u32(v: number): Uint8Array {
  return Uint8Array.of((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff)
}

/** RRSIG rdata up to (not including) the signature. */
function rrsigHeader(
  set: RRsetToSign,
  owner: Labels,
  signer: string,
  validity: Validity,
  tag: number
): Uint8Array {
  return concatBytes([
    u16(set.type),
    Uint8Array.of(ALGORITHM, rrsigLabels(owner)),
    u32(set.ttl),
    u32(validity.expiration),
    u32(validity.inception),
    u16(tag),
    canonicalName(parseName(signer)),
  ])
}

/** RFC 4034 §6.3: records in canonical rdata order, duplicates removed. */
function canonicalRecords(set: RRsetToSign, owner: Labels): Uint8Array[] {
  const ownerWire = canonicalName(owner)
  const rdatas = set.rdata.map((r) => canonicalRdata(set.type, r)).sort(compareBytes)
  const out: Uint8Array[] = []
  let previous: Uint8Array | undefined
  for (const rdata of rdatas) {
    if (previous && compareBytes(previous, rdata) === 0) continue
    previous = rdata
    out.push(
      concatBytes([ownerWire, u16(set.type), u16(CLASS_IN), u32(set.ttl), u16(rdata.length), rdata])
    )
  }
  return out
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** The RRSIG rdata (as `\#` generic rdata) of one RRset under one key. */
export async function signRRset(
  set: RRsetToSign,
  signer: string,
  validity: Validity,
  key: SigningKey
): Promise<string> {
  const owner = parseName(set.owner)
  const header = rrsigHeader(set, owner, signer, validity, key.tag)
  const data = concatBytes([header, ...canonicalRecords(set, owner)])
  const signature = new Uint8Array(
    await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.key, data)
  )
  return genericRdata(concatBytes([header, signature]))
}

/** Verifies an RRSIG made by `signRRset` (tests and self-checks). */
export async function verifyRRset(
  set: RRsetToSign,
  rrsig: string,
  publicKey: CryptoKey
): Promise<boolean> {
  const hex = rrsig.split(' ').slice(2).join('')
  const bytes = Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)))
  const header = bytes.subarray(0, bytes.length - 64)
  const data = concatBytes([header, ...canonicalRecords(set, parseName(set.owner))])
  return crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    publicKey,
    bytes.subarray(bytes.length - 64),
    data
  )
}
