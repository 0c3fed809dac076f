/**
 * @module Questions answered without looking at any zone: meta classes and meta types, with the
 * rcodes BIND 9.18 gives for an authoritative zone over DoH.
 */
import { CLASSES, META_TYPES_FIRST, TYPE_CODES } from '@edgedns/dns-facts'
import type { ResolverRcode } from './types.ts'

const { IN, CH, HS, NONE, ANY } = CLASSES
const { OPT, IXFR, AXFR, MAILA, MAILB } = TYPE_CODES

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
  if (qclass === CH || qclass === HS) return 'REFUSED'
  if (qclass === 0 || qclass === NONE) return 'FORMERR'
  if (qclass !== IN && qclass !== ANY) return 'NOTIMP'
  if (qtype === OPT) return 'FORMERR'
  if (qtype === AXFR || qtype === IXFR || qtype === MAILA || qtype === MAILB) return 'NOTIMP'
  if (qtype >= META_TYPES_FIRST && qtype < IXFR) return 'FORMERR'
  return null
}
