/**
 * @module Byte helpers: base64, hex, generic rdata (concatenation is dns-wire's `concatBytes`).
 */

export function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 4096)
    s += String.fromCharCode(...bytes.subarray(i, i + 4096))
  return btoa(s)
}

export function fromBase64(text: string): Uint8Array {
  const s = atob(text.replace(/\s+/g, ''))
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

export function toHex(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += b.toString(16).padStart(2, '0')
  return s
}

/** `\# <len> <hex>` (RFC 3597): how rdata the wire codec has no presentation format for is carried. */
export function genericRdata(bytes: Uint8Array): string {
  return bytes.length === 0 ? '\\# 0' : `\\# ${bytes.length} ${toHex(bytes)}`
}
