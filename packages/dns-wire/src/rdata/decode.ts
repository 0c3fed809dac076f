/**
 * @module Wire → presentation rdata, picked by the type table's rdata kind; the text is what
 * `encodeRdata` reads back to the same octets. LOC, SVCB/HTTPS and types without a presentation
 * codec are shown as RFC 3597 `\# len hex`.
 */
import { fqdn, typeFact, type RdataKind } from '@edgedns/dns-facts'
import { DnsFormatError } from '../errors.ts'
import { nameText } from '../names.ts'
import type { Reader } from '../reader.ts'

type Decoder = (r: Reader, end: number) => string

const hexOf = (b: Uint8Array): string => {
  let s = ''
  for (const x of b) s += x.toString(16).padStart(2, '0')
  return s
}

function base64Of(b: Uint8Array): string {
  let bin = ''
  for (const c of b) bin += String.fromCharCode(c)
  return btoa(bin)
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A quoted character-string: UTF-8 kept readable, `"` and `\` escaped, other octets as `\DDD`. */
function quoted(b: Uint8Array): string {
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
function ipv6Of(b: Uint8Array): string {
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

const name = (r: Reader): string => fqdn(nameText(r.name()))
const rest = (r: Reader, end: number): Uint8Array => r.take(end - r.offset)
const charString = (r: Reader): string => quoted(r.take(r.u8()))

function strings(r: Reader, end: number): string {
  const parts: string[] = []
  while (r.offset < end) parts.push(charString(r))
  return parts.join(' ')
}

/** RFC 3597 generic form. */
function generic(b: Uint8Array): string {
  return b.length === 0 ? '\\# 0' : `\\# ${b.length} ${hexOf(b)}`
}

const opaque: Decoder = (r, end) => generic(rest(r, end))

const DECODERS: Record<RdataKind, Decoder> = {
  a: (r) => {
    const b = r.take(4)
    return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`
  },
  aaaa: (r) => ipv6Of(r.take(16)),
  name,
  'name-uncompressed': name,
  soa: (r) => `${name(r)} ${name(r)} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()}`,
  hinfo: (r) => `${charString(r)} ${charString(r)}`,
  mx: (r) => `${r.u16()} ${name(r)}`,
  txt: strings,
  loc: opaque,
  srv: (r) => `${r.u16()} ${r.u16()} ${r.u16()} ${name(r)}`,
  naptr: (r) =>
    `${r.u16()} ${r.u16()} ${charString(r)} ${charString(r)} ${charString(r)} ${name(r)}`,
  cert: (r, end) => `${r.u16()} ${r.u16()} ${r.u8()} ${base64Of(rest(r, end))}`,
  ds: (r, end) => `${r.u16()} ${r.u8()} ${r.u8()} ${hexOf(rest(r, end))}`,
  sshfp: (r, end) => `${r.u8()} ${r.u8()} ${hexOf(rest(r, end))}`,
  dnskey: (r, end) => `${r.u16()} ${r.u8()} ${r.u8()} ${base64Of(rest(r, end))}`,
  tlsa: (r, end) => `${r.u8()} ${r.u8()} ${r.u8()} ${hexOf(rest(r, end))}`,
  openpgpkey: (r, end) => base64Of(rest(r, end)),
  svcb: opaque,
  uri: (r, end) => `${r.u16()} ${r.u16()} ${quoted(rest(r, end))}`,
  caa: (r, end) => {
    const flags = r.u8()
    const tag = String.fromCharCode(...r.take(r.u8()))
    return `${flags} ${tag} ${quoted(rest(r, end))}`
  },
  opaque,
  meta: opaque,
}

/**
 * Presentation text of the `length` octets of rdata at the reader's offset; the reader ends
 * after them. Rdata that does not fill its length exactly throws DnsFormatError.
 */
export function readRdata(r: Reader, type: number, length: number): string {
  const end = r.offset + length
  if (end > r.bytes.length) r.fail('rdata runs past the end of the message')
  const start = r.offset
  let text = ''
  try {
    text = DECODERS[typeFact(type)?.rdata ?? 'opaque'](r, end)
  } catch (err) {
    if (!(err instanceof DnsFormatError)) throw err
    r.offset = -1
  }
  if (r.offset !== end) {
    // A type whose rdata does not have its usual shape is still shown, generically.
    r.offset = start
    text = generic(r.take(length))
  }
  return text
}
