/**
 * @module Reading any DNS message (a client's view of a response): header flags, questions,
 * every record with presentation rdata, and the OPT record apart. Used by the SDK, the tests and
 * the benchmarks; the DoH worker reads queries with the stricter `decodeQuery`.
 */
import { TYPE_CODES, typeName } from '@edgedns/dns-facts'
import { Reader } from './reader.ts'
import { readRdata } from './rdata/decode.ts'

export interface MessageRR {
  /** Owner as sent, with trailing dot ('.' for the root). */
  name: string
  /** Mnemonic, or `TYPE<n>`. */
  type: string
  typeCode: number
  class: number
  ttl: number
  /** Presentation rdata (RFC 3597 `\# len hex` where the type has no presentation codec). */
  data: string
}

export interface MessageQuestion {
  name: string
  type: string
  typeCode: number
  class: number
}

export interface MessageOpt {
  payload: number
  extendedRcode: number
  version: number
  do: boolean
  /** Option codes in order (contents not interpreted). */
  options: number[]
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
  /** Full rcode: the header's 4 bits plus the OPT record's extended bits (16 = BADVERS). */
  rcode: number
  question: MessageQuestion[]
  answer: MessageRR[]
  authority: MessageRR[]
  /** Without the OPT record, which is in `opt`. */
  additional: MessageRR[]
  opt: MessageOpt | null
}

function readOpt(r: Reader, payload: number, ttl: number, end: number): MessageOpt {
  const options: number[] = []
  while (r.offset < end) {
    options.push(r.u16())
    r.skip(r.u16())
  }
  if (r.offset !== end) r.fail('OPT options do not fill the record')
  return {
    payload,
    extendedRcode: Math.floor(ttl / 0x1000000),
    version: Math.floor(ttl / 0x10000) & 0xff,
    do: (ttl & 0x8000) !== 0,
    options,
  }
}

/** Decodes a whole message; malformations (truncation, bad names, trailing bytes) throw DnsFormatError. */
export function decodeMessage(bytes: Uint8Array): Message {
  const r = new Reader(bytes)
  const id = r.u16()
  const flags = r.u16()
  r.header = {
    id,
    opcode: (flags >> 11) & 0xf,
    rd: (flags & 0x0100) !== 0,
    cd: (flags & 0x0010) !== 0,
  }
  const [qd, an, ns, ar] = [r.u16(), r.u16(), r.u16(), r.u16()]
  const question: MessageQuestion[] = []
  for (let i = 0; i < qd; i++) {
    const name = r.nameText()
    const typeCode = r.u16()
    question.push({ name, type: typeName(typeCode), typeCode, class: r.u16() })
  }
  let opt: MessageOpt | null = null
  const section = (count: number): MessageRR[] => {
    const out: MessageRR[] = []
    for (let i = 0; i < count; i++) {
      const name = r.nameText()
      const typeCode = r.u16()
      const klass = r.u16()
      const ttl = r.u32()
      const length = r.u16()
      if (typeCode === TYPE_CODES.OPT) {
        opt = readOpt(r, klass, ttl, r.offset + length)
        continue
      }
      const data = readRdata(r, typeCode, length)
      out.push({ name, type: typeName(typeCode), typeCode, class: klass, ttl, data })
    }
    return out
  }
  const answer = section(an)
  const authority = section(ns)
  const additional = section(ar)
  if (r.offset !== bytes.length) r.fail('trailing bytes after the last record')
  const found = opt as MessageOpt | null
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
    rcode: ((found?.extendedRcode ?? 0) << 4) | (flags & 0xf),
    question,
    answer,
    authority,
    additional,
    opt: found,
  }
}

/** One record as a zone-file-like line: `www.example.com. 300 A 192.0.2.1`. */
export const rrLine = (rr: MessageRR): string => `${rr.name} ${rr.ttl} ${rr.type} ${rr.data}`
