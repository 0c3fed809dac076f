/**
 * @module Test helper: build DNS queries and decode responses (an independent, minimal codec:
 * dns-packet needs node Buffer, which this workerd project does not enable).
 */
import { typeFromName, typeName } from '../../../packages/dns-wire/src/index.ts'

export interface QueryOptions {
  id?: number
  rd?: boolean
  cd?: boolean
  opcode?: number
  qclass?: number
  /** Adds an OPT record (payload size, DO bit, version). */
  edns?: { payload?: number; do?: boolean; version?: number; options?: [number, Uint8Array][] }
}

/** Wire name from presentation text (ASCII, no escapes), case kept. */
function nameBytes(name: string): number[] {
  const out: number[] = []
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name
  if (trimmed !== '') {
    for (const label of trimmed.split('.')) {
      out.push(label.length)
      for (let i = 0; i < label.length; i++) out.push(label.charCodeAt(i))
    }
  }
  out.push(0)
  return out
}

const u16 = (n: number): number[] => [(n >> 8) & 0xff, n & 0xff]

export function encodeQuery(name: string, type: string | number, options: QueryOptions = {}): Uint8Array {
  const code = typeof type === 'number' ? type : typeFromName(type)
  if (code === undefined) throw new Error(`unknown type ${type}`)
  const flags = ((options.opcode ?? 0) << 11) | ((options.rd ?? true) ? 0x0100 : 0) | (options.cd ? 0x0010 : 0)
  const bytes = [
    ...u16(options.id ?? 0),
    ...u16(flags),
    ...u16(1),
    ...u16(0),
    ...u16(0),
    ...u16(options.edns ? 1 : 0),
    ...nameBytes(name),
    ...u16(code),
    ...u16(options.qclass ?? 1),
  ]
  if (options.edns) {
    const e = options.edns
    const rdata: number[] = []
    for (const [code, data] of e.options ?? []) rdata.push(...u16(code), ...u16(data.length), ...data)
    bytes.push(0, ...u16(41), ...u16(e.payload ?? 1232), 0, e.version ?? 0, e.do ? 0x80 : 0, 0)
    bytes.push(...u16(rdata.length), ...rdata)
  }
  return new Uint8Array(bytes)
}

export interface RR {
  name: string
  type: string
  class: number
  ttl: number
  /** Presentation text for A, AAAA, NS, CNAME, PTR, MX, SRV, SOA, TXT; hex otherwise. */
  data: string
}

export interface Message {
  id: number
  qr: boolean
  opcode: number
  aa: boolean
  tc: boolean
  rd: boolean
  ra: boolean
  ad: boolean
  cd: boolean
  rcode: number
  question: { name: string; type: string; class: number }[]
  answer: RR[]
  authority: RR[]
  additional: RR[]
  /** The OPT record, if any: payload size, extended rcode, version, DO. */
  opt: { payload: number; extendedRcode: number; version: number; do: boolean } | null
}

const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED']
export const rcodeName = (n: number): string => (n === 16 ? 'BADVERS' : (RCODE_NAMES[n] ?? String(n)))

export function decodeMessage(bytes: Uint8Array): Message {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let pos = 0
  const r16 = (): number => {
    const v = view.getUint16(pos)
    pos += 2
    return v
  }
  const r32 = (): number => {
    const v = view.getUint32(pos)
    pos += 4
    return v
  }
  const readName = (): string => {
    const labels: string[] = []
    let at = pos
    let jumped = false
    for (let guard = 0; guard < 128; guard++) {
      const len = bytes[at] as number
      if (len === 0) {
        if (!jumped) pos = at + 1
        return labels.length === 0 ? '.' : `${labels.join('.')}.`
      }
      if ((len & 0xc0) === 0xc0) {
        if (!jumped) pos = at + 2
        jumped = true
        at = ((len & 0x3f) << 8) | (bytes[at + 1] as number)
        continue
      }
      labels.push(String.fromCharCode(...bytes.subarray(at + 1, at + 1 + len)))
      at += 1 + len
    }
    throw new Error('name loop')
  }
  const id = r16()
  const flags = r16()
  const counts = [r16(), r16(), r16(), r16()] as const
  const question = []
  for (let i = 0; i < counts[0]; i++) question.push({ name: readName(), type: typeName(r16()), class: r16() })
  let opt: Message['opt'] = null
  const section = (n: number): RR[] => {
    const out: RR[] = []
    for (let i = 0; i < n; i++) {
      const name = readName()
      const code = r16()
      const klass = r16()
      const ttl = r32()
      const len = r16()
      const end = pos + len
      if (code === 41) {
        opt = { payload: klass, extendedRcode: ttl >>> 24, version: (ttl >>> 16) & 0xff, do: (ttl & 0x8000) !== 0 }
        pos = end
        continue
      }
      out.push({ name, type: typeName(code), class: klass, ttl, data: rdataText(code, end) })
      pos = end
    }
    return out
  }
  const rdataText = (code: number, end: number): string => {
    switch (code) {
      case 1:
        return [...bytes.subarray(pos, end)].join('.')
      case 28: {
        const groups: number[] = []
        for (let p = pos; p < end; p += 2) groups.push(view.getUint16(p))
        return ipv6Text(groups)
      }
      case 2:
      case 5:
      case 12:
        return readName()
      case 15:
        return `${r16()} ${readName()}`
      case 33:
        return `${r16()} ${r16()} ${r16()} ${readName()}`
      case 6:
        return `${readName()} ${readName()} ${r32()} ${r32()} ${r32()} ${r32()} ${r32()}`
      case 16: {
        const strings: string[] = []
        while (pos < end) {
          const len = bytes[pos] as number
          strings.push(`"${String.fromCharCode(...bytes.subarray(pos + 1, pos + 1 + len))}"`)
          pos += 1 + len
        }
        return strings.join(' ')
      }
      default:
        return [...bytes.subarray(pos, end)].map((b) => b.toString(16).padStart(2, '0')).join('')
    }
  }
  const answer = section(counts[1])
  const authority = section(counts[2])
  const additional = section(counts[3])
  if (pos !== bytes.length) throw new Error(`trailing bytes at ${pos}/${bytes.length}`)
  return {
    id,
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    rd: (flags & 0x0100) !== 0,
    ra: (flags & 0x0080) !== 0,
    ad: (flags & 0x0020) !== 0,
    cd: (flags & 0x0010) !== 0,
    rcode: (flags & 0xf) | (((opt as Message['opt'])?.extendedRcode ?? 0) << 4),
    question,
    answer,
    authority,
    additional,
    opt,
  }
}

/** One RR as a line: `www.example.com. 300 A 192.0.2.1`. */
export const line = (rr: RR): string => `${rr.name} ${rr.ttl} ${rr.type} ${rr.data}`

/** RFC 5952 text: lowercase hex, the longest run (≥ 2) of zero groups as `::`. */
function ipv6Text(groups: number[]): string {
  let best = -1
  let bestLen = 1
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < groups.length && groups[j] === 0) j++
    if (j - i > bestLen) [best, bestLen] = [i, j - i]
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (best < 0) return hex.join(':')
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`
}
