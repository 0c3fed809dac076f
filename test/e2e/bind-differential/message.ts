/**
 * @module An independent DNS message reader for the differential suite: header flags, question
 * (case kept), OPT, and every other record as `owner type ttl rdata` with names decompressed and
 * lowercased, so two servers' answers compare as sets of RRsets.
 */

export interface Flags {
  qr: boolean
  opcode: number
  aa: boolean
  tc: boolean
  rd: boolean
  ra: boolean
  ad: boolean
  cd: boolean
}

export interface Opt {
  payload: number
  version: number
  do: boolean
  options: number[]
}

export interface Message {
  id: number
  flags: Flags
  /** Full rcode: header bits plus the OPT's extended bits (16 = BADVERS). */
  rcode: number
  question: { name: string; type: number; class: number }[]
  answer: string[]
  authority: string[]
  additional: string[]
  opt: Opt | null
}

/** Types whose rdata holds names a server may compress (RFC 3597 §4) or write in any case. */
const NAME_RDATA: Record<number, string> = { 2: 'n', 5: 'n', 12: 'n', 39: 'n', 15: '2n', 6: 'nn44444', 33: '222n' }

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

export function decodeMessage(bytes: Uint8Array): Message {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let pos = 0
  const u16 = (): number => {
    const v = view.getUint16(pos)
    pos += 2
    return v
  }
  const u32 = (): number => {
    const v = view.getUint32(pos)
    pos += 4
    return v
  }
  const name = (lower: boolean): string => {
    const labels: string[] = []
    let at = pos
    let jumped = false
    for (let guard = 0; guard < 128; guard++) {
      const len = bytes[at] as number
      if (len === 0) {
        if (!jumped) pos = at + 1
        const text = labels.join('.') + '.'
        return lower ? text.toLowerCase() : text
      }
      if ((len & 0xc0) === 0xc0) {
        if (!jumped) pos = at + 2
        jumped = true
        at = ((len & 0x3f) << 8) | (bytes[at + 1] as number)
        continue
      }
      const label = bytes.subarray(at + 1, at + 1 + len)
      labels.push([...label].map((b) => (b > 0x20 && b < 0x7f && b !== 0x2e && b !== 0x5c ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`)).join(''))
      at += 1 + len
    }
    throw new Error('name: pointer loop')
  }

  const id = u16()
  const f = u16()
  const counts = [u16(), u16(), u16(), u16()]
  const question: Message['question'] = []
  for (let i = 0; i < (counts[0] as number); i++) question.push({ name: name(false), type: u16(), class: u16() })

  let opt: Opt | null = null
  let extended = 0
  const section = (n: number): string[] => {
    const out: string[] = []
    for (let i = 0; i < n; i++) {
      const owner = name(true)
      const type = u16()
      const klass = u16()
      const ttl = u32()
      const len = u16()
      const end = pos + len
      if (type === 41) {
        extended = (ttl >>> 24) & 0xff
        const options: number[] = []
        while (pos < end) {
          options.push(u16())
          const length = u16()
          pos += length
        }
        opt = { payload: klass, version: (ttl >>> 16) & 0xff, do: (ttl & 0x8000) !== 0, options }
        pos = end
        continue
      }
      out.push(`${owner} ${type} ${klass} ${ttl} ${rdata(type, end)}`)
      pos = end
    }
    return out
  }
  const rdata = (type: number, end: number): string => {
    const shape = NAME_RDATA[type]
    if (!shape) return hex(bytes.subarray(pos, end))
    const parts: string[] = []
    for (const c of shape) {
      if (c === 'n') parts.push(name(true))
      else if (c === '2') parts.push(String(u16()))
      else parts.push(String(u32()))
    }
    return parts.join(' ')
  }
  const answer = section(counts[1] as number)
  const authority = section(counts[2] as number)
  const additional = section(counts[3] as number)
  if (pos !== bytes.length) throw new Error(`trailing bytes: ${bytes.length - pos}`)
  return {
    id,
    flags: {
      qr: (f & 0x8000) !== 0,
      opcode: (f >> 11) & 0xf,
      aa: (f & 0x0400) !== 0,
      tc: (f & 0x0200) !== 0,
      rd: (f & 0x0100) !== 0,
      ra: (f & 0x0080) !== 0,
      ad: (f & 0x0020) !== 0,
      cd: (f & 0x0010) !== 0,
    },
    rcode: (extended << 4) | (f & 0xf),
    question,
    answer,
    authority,
    additional,
    opt,
  }
}

export interface QuerySpec {
  name: string
  type: number
  klass?: number
  rd?: boolean
  cd?: boolean
  /** EDNS: null = no OPT record. */
  edns?: { version?: number; do?: boolean; payload?: number } | null
}

/** A query message (id 0, as RFC 8484 §4.1 recommends for caching). */
export function encodeQuery(q: QuerySpec): Uint8Array {
  const out: number[] = []
  const u16 = (v: number): void => void out.push((v >> 8) & 0xff, v & 0xff)
  const edns = q.edns === undefined ? {} : q.edns
  u16(0)
  u16((q.rd ?? true ? 0x0100 : 0) | (q.cd ? 0x0010 : 0))
  u16(1)
  u16(0)
  u16(0)
  u16(edns ? 1 : 0)
  for (const label of q.name.split('.').filter((l) => l !== '')) {
    const b = Buffer.from(label, 'latin1')
    out.push(b.length, ...b)
  }
  out.push(0)
  u16(q.type)
  u16(q.klass ?? 1)
  if (edns) {
    out.push(0)
    u16(41)
    u16(edns.payload ?? 1232)
    out.push(0, edns.version ?? 0, edns.do ? 0x80 : 0, 0)
    u16(0)
  }
  return Uint8Array.from(out)
}
