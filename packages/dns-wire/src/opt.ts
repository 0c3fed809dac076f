/**
 * @module Writing an EDNS OPT record (RFC 6891 §6.1.2): root owner, type OPT, the UDP payload size
 * in the class field, extended rcode, version and DO flag in the TTL field, then the options.
 */
import { TYPE_CODES } from './types.ts'
import type { ByteWriter } from './writer.ts'

/** Octets of an OPT record without options. */
export const OPT_RR_LENGTH = 11

export interface OptFields {
  payload: number
  /** The upper eight bits of a 12-bit rcode (rcode >> 4). */
  extendedRcode?: number
  version?: number
  do?: boolean
  options?: readonly (readonly [number, Uint8Array])[]
}

/** Appends an OPT record; the caller counts it in ARCOUNT. */
export function writeOpt(w: ByteWriter, f: OptFields): void {
  w.u8(0)
  w.u16(TYPE_CODES.OPT)
  w.u16(f.payload)
  w.u8(f.extendedRcode ?? 0)
  w.u8(f.version ?? 0)
  w.u16(f.do ? 0x8000 : 0)
  const lengthAt = w.length
  w.u16(0)
  for (const [option, data] of f.options ?? []) {
    w.u16(option)
    w.u16(data.length)
    w.bytes(data)
  }
  w.setU16(lengthAt, w.length - lengthAt - 2)
}
