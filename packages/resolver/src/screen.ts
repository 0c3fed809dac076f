/**
 * @module Questions answered without looking at any zone: meta classes and meta types, with the
 * rcodes BIND 9.18 gives for an authoritative zone over DoH.
 */
import type { ResolverRcode } from './types.ts'

const CLASS_IN = 1
const CLASS_CH = 3
const CLASS_HS = 4
const CLASS_NONE = 254
const CLASS_ANY = 255

const OPT = 41
const IXFR = 251
const AXFR = 252
const MAILB = 253
const MAILA = 254
const META_TYPES_FIRST = 128

/**
 * The rcode for a question no zone can answer, or `null` to go on and resolve it.
 *
 * Classes: IN and ANY (treated as IN) resolve. CH and HS are real classes in which we host no
 * zone: REFUSED. The reserved class 0 and the meta class NONE cannot be asked about: FORMERR.
 * Any other class is not implemented: NOTIMP.
 *
 * Types: OPT and the meta types 128–250 (TKEY 249, TSIG 250 …) are not question types: FORMERR.
 * Zone transfers (AXFR, IXFR) are not served over DoH, and MAILA/MAILB are obsolete: NOTIMP.
 * ANY (255) and every data type resolve.
 */
export function screenQuestion(qtype: number, qclass: number): ResolverRcode | null {
  if (qclass === CLASS_CH || qclass === CLASS_HS) return 'REFUSED'
  if (qclass === 0 || qclass === CLASS_NONE) return 'FORMERR'
  if (qclass !== CLASS_IN && qclass !== CLASS_ANY) return 'NOTIMP'
  if (qtype === OPT) return 'FORMERR'
  if (qtype === AXFR || qtype === IXFR || qtype === MAILA || qtype === MAILB) return 'NOTIMP'
  if (qtype >= META_TYPES_FIRST && qtype < IXFR) return 'FORMERR'
  return null
}
