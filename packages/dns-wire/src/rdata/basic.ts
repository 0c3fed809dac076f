/**
 * @module RFC 1035-era and simple types: A, AAAA, CNAME/NS/PTR/DNAME, MX, SOA, TXT/SPF, HINFO,
 * SRV, NAPTR, URI, CAA.
 */
import type { Compressor } from '../names.ts'
import type { ByteWriter } from '../writer.ts'
import { writeRdataName } from './name-field.ts'
import { TextError, charString, ipv4, ipv6, uint } from './text.ts'

export type Encoder = (w: ByteWriter, t: string[], comp?: Compressor) => void

const U8 = 0xff
const U16 = 0xffff
const U32 = 0xffffffff

function count(t: string[], n: number): void {
  if (t.length !== n) throw new TextError(`expected ${n} fields, got ${t.length}`)
}

function shortString(w: ByteWriter, token: string | undefined): void {
  if (token === undefined) throw new TextError('missing string')
  const b = charString(token)
  if (b.length > 255) throw new TextError('character-string longer than 255 octets')
  w.u8(b.length)
  w.bytes(b)
}

export const a: Encoder = (w, t) => {
  count(t, 1)
  w.bytes(ipv4(t[0] as string))
}

export const aaaa: Encoder = (w, t) => {
  count(t, 1)
  w.bytes(ipv6(t[0] as string))
}

/** CNAME, NS, PTR: one name, compressible. */
export const compressedName: Encoder = (w, t, comp) => {
  count(t, 1)
  writeRdataName(w, t[0], comp)
}

/** DNAME (RFC 6672 §2.5): one name, never compressed. */
export const plainName: Encoder = (w, t) => {
  count(t, 1)
  writeRdataName(w, t[0], undefined)
}

export const mx: Encoder = (w, t, comp) => {
  count(t, 2)
  w.u16(uint(t[0], U16, 'preference'))
  writeRdataName(w, t[1], comp)
}

export const soa: Encoder = (w, t, comp) => {
  count(t, 7)
  writeRdataName(w, t[0], comp)
  writeRdataName(w, t[1], comp)
  for (const [i, what] of ['serial', 'refresh', 'retry', 'expire', 'minimum'].entries()) {
    w.u32(uint(t[i + 2], U32, what))
  }
}

/** TXT/SPF: one or more strings; a string over 255 octets is split into 255-octet pieces. */
export const txt: Encoder = (w, t) => {
  if (t.length === 0) throw new TextError('no strings')
  for (const token of t) {
    const b = charString(token)
    if (b.length === 0) w.u8(0)
    for (let i = 0; i < b.length; i += 255) {
      const piece = b.subarray(i, i + 255)
      w.u8(piece.length)
      w.bytes(piece)
    }
  }
}

export const hinfo: Encoder = (w, t) => {
  count(t, 2)
  shortString(w, t[0])
  shortString(w, t[1])
}

export const srv: Encoder = (w, t) => {
  count(t, 4)
  w.u16(uint(t[0], U16, 'priority'))
  w.u16(uint(t[1], U16, 'weight'))
  w.u16(uint(t[2], U16, 'port'))
  writeRdataName(w, t[3], undefined)
}

export const naptr: Encoder = (w, t) => {
  count(t, 6)
  w.u16(uint(t[0], U16, 'order'))
  w.u16(uint(t[1], U16, 'preference'))
  shortString(w, t[2])
  shortString(w, t[3])
  shortString(w, t[4])
  writeRdataName(w, t[5], undefined)
}

/** URI (RFC 7553): priority, weight, and the target as the rest of the rdata (no length). */
export const uri: Encoder = (w, t) => {
  count(t, 3)
  w.u16(uint(t[0], U16, 'priority'))
  w.u16(uint(t[1], U16, 'weight'))
  const target = charString(t[2] as string)
  if (target.length === 0) throw new TextError('empty target')
  w.bytes(target)
}

/** CAA (RFC 8659): flags, tag (letters and digits), value as the rest of the rdata. */
export const caa: Encoder = (w, t) => {
  count(t, 3)
  w.u8(uint(t[0], U8, 'flags'))
  const tag = t[1] as string
  if (!/^[A-Za-z0-9]{1,15}$/.test(tag)) throw new TextError(`bad tag ${tag}`)
  w.u8(tag.length)
  w.bytes(new TextEncoder().encode(tag))
  w.bytes(charString(t[2] as string))
}
