/**
 * @module Octets written as presentation text: hex, base64, quoted character-strings, IPv6
 * addresses and RFC 3597's generic `\# len hex`, shared by the rdata decoders.
 */
import type { Reader } from '../reader.ts'

/** Reads one record's rdata, ending at `end`, as presentation text. */
export type Decoder = (r: Reader, end: number) => string

export const hexOf = (b: Uint8Array): string => {
  let s = ''
  for (const x of b) s += x.toString(16).padStart(2, '0')
  return s
}

export function base64Of(b: Uint8Array): string {
  let bin = ''
  for (const c of b) bin += String.fromCharCode(c)
  return btoa(bin)
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A quoted character-string: UTF-8 kept readable, `"` and `\` escaped, other octets as `\DDD`. */
export function quoted(b: Uint8Array): string {
  let text: string | undefined
  try {
    text = utf8.decode(b)
  } catch {
    text = undefined
  }
  let s = '"'
  if (text !== undefined) {
    for (const ch of text) {
      const c = ch.codePointAt(0) as number
      if (ch === '"' || ch === '\\') s += `\\${ch}`
      else if (c < 0x20 || c === 0x7f) s += `\\${String(c).padStart(3, '0')}`
      else s += ch
    }
  } else {
    for (const c of b) {
      if (c === 0x22 || c === 0x5c) s += `\\${String.fromCharCode(c)}`
      else if (c >= 0x20 && c < 0x7f) s += String.fromCharCode(c)
      else s += `\\${String(c).padStart(3, '0')}`
    }
  }
  return `${s}"`
}

/** RFC 5952 text: lowercase hex, the longest run (≥ 2) of zero groups as `::`. */
export function ipv6Of(b: Uint8Array): string {
  const groups: number[] = []
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] as number) << 8) | (b[i + 1] as number))
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) [best, bestLen] = [i, j - i]
    i = j
  }
  const h = groups.map((g) => g.toString(16))
  if (best < 0) return h.join(':')
  return `${h.slice(0, best).join(':')}::${h.slice(best + bestLen).join(':')}`
}

/** RFC 3597 generic form. */
export function generic(b: Uint8Array): string {
  return b.length === 0 ? '\\# 0' : `\\# ${b.length} ${hexOf(b)}`
}
