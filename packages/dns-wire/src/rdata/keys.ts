/**
 * @module Key and fingerprint types: DS/CDS, DNSKEY/CDNSKEY, CERT, SSHFP, TLSA/SMIMEA, OPENPGPKEY.
 */
import { CERT_TYPES, DNSSEC_ALGORITHMS } from '@edgedns/dns-facts'
import type { Encoder } from './basic.ts'
import { TextError, base64, hex, uint } from './text.ts'

const U8 = 0xff
const U16 = 0xffff

function atLeast(t: string[], n: number): void {
  if (t.length < n) throw new TextError(`expected at least ${n} fields, got ${t.length}`)
}

export const ds: Encoder = (w, t) => {
  atLeast(t, 4)
  w.u16(uint(t[0], U16, 'key tag'))
  w.u8(uint(t[1], U8, 'algorithm'))
  w.u8(uint(t[2], U8, 'digest type'))
  w.bytes(hex(t.slice(3).join(''), 'digest'))
}

export const dnskey: Encoder = (w, t) => {
  atLeast(t, 4)
  w.u16(uint(t[0], U16, 'flags'))
  w.u8(uint(t[1], U8, 'protocol'))
  w.u8(uint(t[2], U8, 'algorithm'))
  w.bytes(base64(t.slice(3).join(''), 'public key'))
}

function mnemonic(
  token: string | undefined,
  table: Readonly<Record<string, number>>,
  max: number,
  what: string
): number {
  const upper = token?.toUpperCase()
  // Own keys only: an inherited name such as `constructor` is not a mnemonic.
  return upper !== undefined && Object.hasOwn(table, upper) ? table[upper]! : uint(token, max, what)
}

export const cert: Encoder = (w, t) => {
  atLeast(t, 4)
  w.u16(mnemonic(t[0], CERT_TYPES, U16, 'certificate type'))
  w.u16(uint(t[1], U16, 'key tag'))
  w.u8(mnemonic(t[2], DNSSEC_ALGORITHMS, U8, 'algorithm'))
  w.bytes(base64(t.slice(3).join(''), 'certificate'))
}

export const sshfp: Encoder = (w, t) => {
  atLeast(t, 3)
  w.u8(uint(t[0], U8, 'algorithm'))
  w.u8(uint(t[1], U8, 'fingerprint type'))
  w.bytes(hex(t.slice(2).join(''), 'fingerprint'))
}

/** TLSA and SMIMEA share one format. */
export const tlsa: Encoder = (w, t) => {
  atLeast(t, 4)
  w.u8(uint(t[0], U8, 'usage'))
  w.u8(uint(t[1], U8, 'selector'))
  w.u8(uint(t[2], U8, 'matching type'))
  w.bytes(hex(t.slice(3).join(''), 'certificate association data'))
}

export const openpgpkey: Encoder = (w, t) => {
  atLeast(t, 1)
  w.bytes(base64(t.join(''), 'key'))
}
