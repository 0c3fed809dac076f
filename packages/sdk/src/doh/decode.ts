/**
 * @module Decodes a DNS response: header flags, rcode, and each section's records with rdata in
 * presentation form (A, AAAA, NS, CNAME, DNAME, PTR, MX, TXT, SRV, SOA, CAA, DS, DNSKEY, SSHFP,
 * TLSA, SMIMEA; other types as RFC 3597 `\# len hex`). Compression pointers are followed.
 */
import { rcodeName, typeName } from './types.ts'

export interface Answer {
  name: string
  type: string
  typeCode: number
  class: number
  ttl: number
  data: string
}

export interface DnsMessage {
  id: number
  rcode: number
  rcodeName: string
  flags: { qr: boolean; aa: boolean; tc: boolean; rd: boolean; ra: boolean; ad: boolean; cd: boolean }
  question: { name: string; type: string }[]
  answers: Answer[]
  authority: Answer[]
  additional: Answer[]
}

class Reader {
  readonly bytes: Uint8Array
  readonly view: DataView
  pos = 0

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  need(n: number): void {
    if (this.pos + n > this.bytes.length) throw new RangeError('truncated DNS message')
  }

  u8(): number {
    this.need(1)
    return this.bytes[this.pos++]!
  }

  u16(): number {
    this.need(2)
    const v = this.view.getUint16(this.pos)
    this.pos += 2
    return v
  }

  u32(): number {
    this.need(4)
    const v = this.view.getUint32(this.pos)
    this.pos += 4
    return v
  }

  take(n: number): Uint8Array {
    this.need(n)
    const out = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  /** A possibly compressed name, as an FQDN with trailing dot. */
  name(): string {
    const labels: string[] = []
    let pos = this.pos
    let jumped = false
    for (let hops = 0; hops < 128; hops++) {
      if (pos >= this.bytes.length) throw new RangeError('truncated name')
      const len = this.bytes[pos]!
      if (len === 0) {
        if (!jumped) this.pos = pos + 1
        return labels.length === 0 ? '.' : `${labels.join('.')}.`
      }
      if ((len & 0xc0) === 0xc0) {
        if (pos + 1 >= this.bytes.length) throw new RangeError('truncated pointer')
        if (!jumped) this.pos = pos + 2
        jumped = true
        pos = ((len & 0x3f) << 8) | this.bytes[pos + 1]!
        continue
      }
      if (pos + 1 + len > this.bytes.length) throw new RangeError('truncated label')
      labels.push(escapeLabel(this.bytes.subarray(pos + 1, pos + 1 + len)))
      pos += 1 + len
    }
    throw new RangeError('compression loop')
  }
}

function escapeLabel(b: Uint8Array): string {
  let s = ''
  for (const c of b) {
    if (c === 0x2e || c === 0x5c) s += `\\${String.fromCharCode(c)}`
    else if (c > 0x20 && c < 0x7f) s += String.fromCharCode(c)
    else s += `\\${String(c).padStart(3, '0')}`
  }
  return s
}

function charString(b: Uint8Array): string {
  let s = '"'
  for (const c of b) {
    if (c === 0x22 || c === 0x5c) s += `\\${String.fromCharCode(c)}`
    else if (c >= 0x20 && c < 0x7f) s += String.fromCharCode(c)
    else s += `\\${String(c).padStart(3, '0')}`
  }
  return `${s}"`
}

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('')

function base64(b: Uint8Array): string {
  let bin = ''
  for (const c of b) bin += String.fromCharCode(c)
  return btoa(bin)
}

export function ipv6(b: Uint8Array): string {
  const groups: number[] = []
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!)
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) {
      best = i
      bestLen = j - i
    }
    i = j
  }
  const h = groups.map((g) => g.toString(16))
  if (best === -1) return h.join(':')
  return `${h.slice(0, best).join(':')}::${h.slice(best + bestLen).join(':')}`
}

function rdata(r: Reader, type: number, len: number): string {
  const end = r.pos + len
  const rest = () => r.take(end - r.pos)
  let out: string
  switch (type) {
    case 1:
      out = [...r.take(4)].join('.')
      break
    case 28:
      out = ipv6(r.take(16))
      break
    case 2: case 5: case 12: case 39:
      out = r.name()
      break
    case 15:
      out = `${r.u16()} ${r.name()}`
      break
    case 16: case 99: {
      const parts: string[] = []
      while (r.pos < end) parts.push(charString(r.take(r.u8())))
      out = parts.join(' ')
      break
    }
    case 33:
      out = `${r.u16()} ${r.u16()} ${r.u16()} ${r.name()}`
      break
    case 6:
      out = `${r.name()} ${r.name()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()} ${r.u32()}`
      break
    case 257: {
      const flags = r.u8()
      const tag = new TextDecoder().decode(r.take(r.u8()))
      out = `${flags} ${tag} ${charString(rest())}`
      break
    }
    case 43:
      out = `${r.u16()} ${r.u8()} ${r.u8()} ${hex(rest())}`
      break
    case 48:
      out = `${r.u16()} ${r.u8()} ${r.u8()} ${base64(rest())}`
      break
    case 44:
      out = `${r.u8()} ${r.u8()} ${hex(rest())}`
      break
    case 52: case 53:
      out = `${r.u8()} ${r.u8()} ${r.u8()} ${hex(rest())}`
      break
    default: {
      const b = rest()
      out = `\\# ${b.length}${b.length ? ` ${hex(b)}` : ''}`
    }
  }
  if (r.pos !== end) throw new RangeError(`rdata length mismatch for ${typeName(type)}`)
  return out
}

function record(r: Reader): Answer {
  const name = r.name()
  const typeCode = r.u16()
  const cls = r.u16()
  const ttl = r.u32()
  const len = r.u16()
  r.need(len)
  const data = typeCode === 41 ? `\\# ${len}` : rdata(r, typeCode, len)
  if (typeCode === 41) r.pos += len
  return { name, type: typeName(typeCode), typeCode, class: cls, ttl, data }
}

export function decodeMessage(bytes: Uint8Array): DnsMessage {
  const r = new Reader(bytes)
  const id = r.u16()
  const flags = r.u16()
  const counts = [r.u16(), r.u16(), r.u16(), r.u16()] as const
  const question: DnsMessage['question'] = []
  for (let i = 0; i < counts[0]; i++) {
    const name = r.name()
    const type = r.u16()
    r.u16()
    question.push({ name, type: typeName(type) })
  }
  const section = (n: number) => Array.from({ length: n }, () => record(r))
  const answers = section(counts[1])
  const authority = section(counts[2])
  const additional = section(counts[3]).filter((a) => a.typeCode !== 41)
  const rcode = flags & 0xf
  return {
    id,
    rcode,
    rcodeName: rcodeName(rcode),
    flags: {
      qr: (flags & 0x8000) !== 0, aa: (flags & 0x0400) !== 0, tc: (flags & 0x0200) !== 0, rd: (flags & 0x0100) !== 0,
      ra: (flags & 0x0080) !== 0, ad: (flags & 0x0020) !== 0, cd: (flags & 0x0010) !== 0,
    },
    question,
    answers,
    authority,
    additional,
  }
}
