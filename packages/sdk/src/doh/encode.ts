/**
 * @module Encodes one DNS query (RFC 1035 §4) for RFC 8484 POST: id 0 (cache friendly), RD set,
 * one question of class IN, and an EDNS(0) OPT record advertising 4096 bytes.
 */
import { typeCode } from './types.ts'

function labelsOf(name: string): Uint8Array[] {
  let ascii = name.trim().replace(/\.$/, '')
  // Non-ASCII names go to Punycode through the URL parser (available in every runtime).
  if (/[^\x00-\x7f]/.test(ascii)) ascii = new URL(`http://${ascii}`).hostname
  if (ascii === '') return []
  const enc = new TextEncoder()
  return ascii.split('.').map((label) => {
    const bytes = enc.encode(label)
    if (bytes.length === 0 || bytes.length > 63) throw new RangeError(`bad label ${JSON.stringify(label)} in ${JSON.stringify(name)}`)
    return bytes
  })
}

export function encodeName(name: string): Uint8Array {
  const labels = labelsOf(name)
  const out = new Uint8Array(labels.reduce((n, l) => n + l.length + 1, 1))
  let o = 0
  for (const l of labels) {
    out[o++] = l.length
    out.set(l, o)
    o += l.length
  }
  if (out.length > 255) throw new RangeError(`name too long: ${name}`)
  return out
}

export interface QueryOptions {
  id?: number
  /** Add an EDNS(0) OPT record (default true). */
  edns?: boolean
  /** DNSSEC OK bit (with EDNS). */
  dnssecOk?: boolean
}

export function encodeQuery(name: string, type: string | number, opts: QueryOptions = {}): Uint8Array {
  const qname = encodeName(name)
  const edns = opts.edns ?? true
  const out = new Uint8Array(12 + qname.length + 4 + (edns ? 11 : 0))
  const v = new DataView(out.buffer)
  v.setUint16(0, opts.id ?? 0)
  v.setUint16(2, 0x0100) // RD
  v.setUint16(4, 1)
  v.setUint16(10, edns ? 1 : 0)
  out.set(qname, 12)
  let o = 12 + qname.length
  v.setUint16(o, typeCode(type))
  v.setUint16(o + 2, 1) // IN
  o += 4
  if (edns) {
    out[o] = 0 // root owner
    v.setUint16(o + 1, 41) // OPT
    v.setUint16(o + 3, 4096) // payload size
    v.setUint32(o + 5, opts.dnssecOk ? 0x8000 : 0) // ext rcode, version, DO
    v.setUint16(o + 9, 0) // no options
  }
  return out
}
