/**
 * @module Decoding a DNS query message: header, exactly one question, EDNS(0) OPT.
 */
import { CLASSES } from '@edgedns/dns-facts'
import { DnsFormatError, type PartialHeader } from './errors.ts'
import { nameText, type Labels } from './names.ts'
import { Reader } from './reader.ts'
import { TYPE_CODES } from './types.ts'

export interface QueryQuestion {
  /** Presentation text as sent (case preserved), without trailing dot; '' is the root. */
  name: string
  type: number
  class: number
}

export interface Edns {
  /** Requestor's UDP payload size (values below 512 read as 512). */
  udpPayloadSize: number
  version: number
  /** DNSSEC OK bit. */
  do: boolean
  /** Option codes present, in order (contents are not interpreted). */
  options: number[]
}

export interface Query {
  id: number
  opcode: number
  rd: boolean
  cd: boolean
  ad: boolean
  question: QueryQuestion
  edns: Edns | null
}

/** Largest DNS message (RFC 1035 over TCP, RFC 8484). */
export const MAX_MESSAGE = 65535
/** Smallest DNS message: its header alone. */
export const HEADER_BYTES = 12
const OPT = TYPE_CODES.OPT
const TSIG = TYPE_CODES.TSIG

/** Header fields of a message with at least a header's bytes, for a FORMERR reply; else undefined. */
export function peekHeader(bytes: Uint8Array): PartialHeader | undefined {
  if (bytes.length < HEADER_BYTES) return undefined
  const flags = ((bytes[2] as number) << 8) | (bytes[3] as number)
  return {
    id: ((bytes[0] as number) << 8) | (bytes[1] as number),
    opcode: (flags >> 11) & 0xf,
    rd: (flags & 0x0100) !== 0,
    cd: (flags & 0x0010) !== 0,
  }
}

function readOpt(r: Reader, ownerIsRoot: boolean, klass: number, ttl: number, rdlen: number): Edns {
  if (!ownerIsRoot) r.fail('OPT owner is not the root')
  const end = r.offset + rdlen
  const options: number[] = []
  while (r.offset < end) {
    options.push(r.u16())
    const len = r.u16()
    if (r.offset + len > end) r.fail('EDNS option runs past the OPT record')
    r.skip(len)
  }
  return {
    udpPayloadSize: Math.max(512, klass),
    version: Math.floor(ttl / 0x10000) & 0xff,
    do: (ttl & 0x8000) !== 0,
    options,
  }
}

/**
 * Parses a query; every malformation throws DnsFormatError (with the header when readable). The
 * question's class and type are not judged here: a CH class or a TSIG QTYPE is well-formed, and
 * the resolver gives it the rcode it deserves (REFUSED, FORMERR, NOTIMP).
 */
export function decodeQuery(bytes: Uint8Array): Query {
  if (!(bytes instanceof Uint8Array)) throw new DnsFormatError('query is not bytes')
  const header = peekHeader(bytes)
  if (!header) throw new DnsFormatError('message shorter than a DNS header')
  if (bytes.length > MAX_MESSAGE) throw new DnsFormatError('message too large', header)
  const r = new Reader(bytes)
  r.header = header
  r.skip(2)
  const flags = r.u16()
  if (flags & 0x8000) r.fail('message is a response')
  const [qd, an, ns, ar] = [r.u16(), r.u16(), r.u16(), r.u16()]
  // Every question is read (a count other than one is refused below, once the records are read,
  // so that the refusal can carry the query's OPT record).
  let qname: Labels = []
  let qtype = 0
  let qclass = 0
  for (let i = 0; i < qd; i++) {
    const name = r.name()
    const [type, klass] = [r.u16(), r.u16()]
    if (i === 0) [qname, qtype, qclass] = [name, type, klass]
  }

  let edns: Edns | null = null
  for (let i = 0; i < an + ns + ar; i++) {
    const owner = r.name()
    const type = r.u16()
    const klass = r.u16()
    const ttl = r.u32()
    const rdlen = r.u16()
    const start = r.offset
    if (type === OPT) {
      if (i < an + ns) r.fail('OPT outside the additional section')
      if (edns) r.fail('more than one OPT record')
      edns = readOpt(r, owner.length === 0, klass, ttl, rdlen)
      if (r.offset !== start + rdlen) r.fail('OPT options do not fill the record')
    } else {
      // A TSIG record anywhere but last in the additional section, or of another class than
      // ANY, is malformed (RFC 8945 §5.1: FORMERR).
      if (type === TSIG && (i !== an + ns + ar - 1 || i < an + ns || klass !== CLASSES.ANY))
        r.fail('TSIG is not the last additional record, of class ANY')
      r.skip(rdlen)
    }
  }
  if (r.offset !== bytes.length) r.fail('trailing bytes after the last record')
  if (qd !== 1) {
    const seen = edns === null ? {} : { edns: { do: (edns as Edns).do } }
    throw new DnsFormatError(`expected one question, got ${qd}`, { ...header, ...seen })
  }

  return {
    id: header.id,
    opcode: header.opcode,
    rd: header.rd,
    cd: header.cd,
    ad: (flags & 0x0020) !== 0,
    question: { name: nameText(qname), type: qtype, class: qclass },
    edns,
  }
}
