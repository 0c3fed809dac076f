/**
 * @module The differential suite's view of a DNS message, read and written by dns-packet (an
 * independent codec: the oracle must not share the project's code it checks). Header flags,
 * question (case kept), OPT, and every other record as `owner type class ttl rdata` with names
 * decompressed and lowercased, so two servers' answers compare as sets of RRsets.
 */
import { createRequire } from 'node:module'
import packet from 'dns-packet'

const require = createRequire(import.meta.url)
const types = require('dns-packet/types.js') as {
  toType(name: string): number
  toString(code: number): string
}
const classes = require('dns-packet/classes.js') as {
  toClass(name: string): number
  toString(code: number): string
}

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

interface Opt {
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

/** A decoded record as dns-packet gives it (its typings leave out `class`, `flush` and `record`). */
type Record = {
  name: string
  type: string
  class?: string
  flush?: boolean
  ttl: number
  data: any
}
const recordCodec = (
  packet as unknown as { record(type: string): { encode(data: unknown): Buffer } }
).record
type OptRecord = {
  udpPayloadSize: number
  extendedRcode: number
  ednsVersion: number
  flags: number
  options: { code: number }[]
}

const fqdn = (name: string): string =>
  name === '.' || name === '' ? '.' : `${name.toLowerCase()}.`

/** Rdata text: names (which a server may compress or write in any case) lowercased, else hex octets. */
function rdata(rr: Record): string {
  const d = rr.data
  switch (rr.type) {
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return fqdn(d)
    case 'MX':
      return `${d.preference} ${fqdn(d.exchange)}`
    case 'SRV':
      return `${d.priority} ${d.weight} ${d.port} ${fqdn(d.target)}`
    case 'SOA':
      return `${fqdn(d.mname)} ${fqdn(d.rname)} ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`
    default:
      // dns-packet's own encoding of what it decoded (2 octets of RDLENGTH first).
      return recordCodec(rr.type).encode(d).subarray(2).toString('hex')
  }
}

const line = (rr: Record): string =>
  `${fqdn(rr.name)} ${types.toType(rr.type)} ${classes.toClass(rr.class ?? 'IN') | (rr.flush ? 0x8000 : 0)} ${rr.ttl} ${rdata(rr)}`

export function decodeMessage(bytes: Uint8Array): Message {
  const d = packet.decode(Buffer.from(bytes))
  const f = d.flags ?? 0
  const optRecord = (d.additionals ?? []).find((a) => a.type === 'OPT') as unknown as
    OptRecord | undefined
  const records = (list: packet.Answer[] | undefined): string[] =>
    (list ?? []).filter((a) => a.type !== 'OPT').map((a) => line(a as unknown as Record))
  return {
    id: d.id ?? 0,
    flags: {
      qr: (f & 0x8000) !== 0,
      opcode: (f >> 11) & 0xf,
      aa: (f & packet.AUTHORITATIVE_ANSWER) !== 0,
      tc: (f & packet.TRUNCATED_RESPONSE) !== 0,
      rd: (f & packet.RECURSION_DESIRED) !== 0,
      ra: (f & packet.RECURSION_AVAILABLE) !== 0,
      ad: (f & packet.AUTHENTIC_DATA) !== 0,
      cd: (f & packet.CHECKING_DISABLED) !== 0,
    },
    rcode: ((optRecord?.extendedRcode ?? 0) << 4) | (f & 0xf),
    question: (d.questions ?? []).map((q) => ({
      name: q.name === '.' ? '.' : `${q.name}.`,
      type: types.toType(q.type),
      class: classes.toClass(q.class ?? 'IN'),
    })),
    answer: records(d.answers),
    authority: records(d.authorities),
    additional: records(d.additionals),
    opt: optRecord
      ? {
          payload: optRecord.udpPayloadSize,
          version: optRecord.ednsVersion,
          do: (optRecord.flags & packet.DNSSEC_OK) !== 0,
          options: (optRecord.options ?? []).map((o) => o.code),
        }
      : null,
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
  const edns = q.edns === undefined ? {} : q.edns
  const flags =
    ((q.rd ?? true) ? packet.RECURSION_DESIRED : 0) | (q.cd ? packet.CHECKING_DISABLED : 0)
  const question = {
    name: q.name,
    type: types.toString(q.type),
    class: classes.toString(q.klass ?? 1),
  }
  const opt = edns
    ? [
        {
          type: 'OPT',
          name: '.',
          udpPayloadSize: edns.payload ?? 1232,
          extendedRcode: 0,
          ednsVersion: edns.version ?? 0,
          flags: edns.do ? packet.DNSSEC_OK : 0,
          options: [],
        },
      ]
    : []
  return new Uint8Array(
    packet.encode({
      type: 'query',
      id: 0,
      flags,
      questions: [question],
      additionals: opt,
    } as unknown as packet.Packet)
  )
}
