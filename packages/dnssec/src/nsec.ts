/**
 * @module NSEC rdata (RFC 4034 §4): the next owner name and the type bit maps, as `\#` generic
 * rdata (the wire codec carries types it has no presentation format for that way).
 */
import { TYPE_CODES } from '@edgedns/dns-facts'
import { genericRdata } from './bytes.ts'
import { concatBytes, type Labels } from '@edgedns/dns-wire'
import { canonicalName } from './names.ts'

/** RFC 9824: NXNAME in a compact denial NSEC says the query name does not exist. */
export const { RRSIG, NSEC, NXNAME } = TYPE_CODES

/** Type bit maps field for the given type codes. */
export function typeBitmaps(types: Iterable<number>): Uint8Array {
  const sorted = [...new Set(types)].sort((a, b) => a - b)
  const out: number[] = []
  let i = 0
  while (i < sorted.length) {
    const window = sorted[i]! >> 8
    const bits = new Uint8Array(32)
    let used = 0
    while (i < sorted.length && sorted[i]! >> 8 === window) {
      const low = sorted[i]! & 0xff
      bits[low >> 3]! |= 0x80 >> (low & 7)
      used = (low >> 3) + 1
      i++
    }
    out.push(window, used, ...bits.subarray(0, used))
  }
  return Uint8Array.from(out)
}

function nsecWire(next: Labels, types: Iterable<number>): Uint8Array {
  return concatBytes([canonicalName(next), typeBitmaps(types)])
}

export function nsecRdata(next: Labels, types: Iterable<number>): string {
  return genericRdata(nsecWire(next, types))
}
