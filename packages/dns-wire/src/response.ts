/**
 * @module Encoding a response: header, question, RRsets (compressed, truncated with TC), OPT.
 */
import { RdataError, type PartialHeader } from './errors.ts'
import { Compressor, NameError, parseName, writeName } from './names.ts'
import { OPT_RR_LENGTH, writeOpt } from './opt.ts'
import type { Query, QueryQuestion } from './query.ts'
import { writeRdata } from './rdata/index.ts'
import { CLASSES, OPCODES, TYPE_CODES, rcodeValue, type RcodeName } from './types.ts'
import { ByteWriter } from './writer.ts'

/** Our EDNS UDP payload size (DNS Flag Day 2020). */
export const OUR_UDP_PAYLOAD = 1232

/** A record to encode: owner in any case with or without trailing dot; presentation rdata. */
export interface ResponseRR {
  name: string
  type: number
  ttl: number
  rdata: string
}

export interface ResponseInit {
  id: number
  opcode?: number
  rcode: RcodeName | number
  aa?: boolean
  tc?: boolean
  rd?: boolean
  ra?: boolean
  ad?: boolean
  cd?: boolean
  question?: QueryQuestion | null
  answer?: ResponseRR[]
  authority?: ResponseRR[]
  additional?: ResponseRR[]
  /**
   * Adds an OPT record (our payload size, DO echoed); required for rcodes above 15. `padBlock`:
   * the message is padded (RFC 7830's Padding option) to a multiple of that many octets, or to
   * `maxSize` when the next multiple would pass it.
   */
  edns?: { udpPayloadSize?: number; do?: boolean; padBlock?: number } | null
  /** Largest message to produce; whole RRsets that do not fit are dropped and TC set. */
  maxSize?: number
  /** Compress names (default true). */
  compress?: boolean
}

function ownerLabels(name: string): Uint8Array[] {
  try {
    return parseName(name)
  } catch (err) {
    if (err instanceof NameError) throw new RdataError('owner', err.message)
    throw err
  }
}

/** Consecutive records with the same owner and type, kept or dropped together. */
function rrsets(rrs: ResponseRR[]): ResponseRR[][] {
  const sets: ResponseRR[][] = []
  for (const rr of rrs) {
    const last = sets[sets.length - 1]
    const head = last?.[0]
    if (
      last &&
      head &&
      head.type === rr.type &&
      head.name.toLowerCase() === rr.name.toLowerCase()
    ) {
      last.push(rr)
    } else sets.push([rr])
  }
  return sets
}

function writeRR(w: ByteWriter, rr: ResponseRR, comp: Compressor | undefined): void {
  writeName(w, ownerLabels(rr.name), comp)
  w.u16(rr.type)
  w.u16(CLASSES.IN)
  w.u32(Math.max(0, Math.min(rr.ttl, 0x7fffffff)))
  writeRdata(w, rr.type, rr.rdata, comp)
}

/**
 * The writer every response is assembled in, then copied out by `finish`: encoding is synchronous
 * and never nested, and a fresh buffer per message was a noticeable share of a DoH miss.
 */
const responseWriter = new ByteWriter()

/** Octets of an EDNS option before its data (code and length). */
const PADDING_OPTION_HEADER = 4
/** The EDNS Padding option's code (RFC 7830). */
const PADDING = 12
/**
 * The block length responses are padded to when their query asked for padding: RFC 8467 §4.1's
 * recommendation for responses.
 */
const RESPONSE_PAD_BLOCK = 468

/**
 * The Padding option that brings a message of `length` octets so far (before its OPT record) to a
 * multiple of `block` octets, or to `maxSize` when that multiple would pass it.
 */
function padding(length: number, block: number, maxSize: number): readonly [number, Uint8Array] {
  const unpadded = length + OPT_RR_LENGTH + PADDING_OPTION_HEADER
  const target = Math.min(Math.ceil(unpadded / block) * block, maxSize)
  return [PADDING, new Uint8Array(Math.max(0, target - unpadded))]
}

export function encodeResponse(init: ResponseInit): Uint8Array {
  const rcode = rcodeValue(init.rcode)
  if (rcode > 15 && !init.edns) throw new RangeError(`rcode ${rcode} needs EDNS`)
  const maxSize = Math.min(init.maxSize ?? 65535, 65535)
  const comp = init.compress === false ? undefined : new Compressor()
  const w = responseWriter
  w.reset()
  w.u16(init.id)
  w.u16(0) // flags, set below
  const q = init.question
  w.u16(q ? 1 : 0)
  w.u16(0)
  w.u16(0)
  w.u16(0)
  if (q) {
    const labels = ownerLabels(q.name)
    writeName(w, labels, comp)
    w.u16(q.type)
    w.u16(q.class)
  }

  const padBlock = init.edns?.padBlock ?? 0
  const budget =
    maxSize - (init.edns ? OPT_RR_LENGTH : 0) - (padBlock > 0 ? PADDING_OPTION_HEADER : 0)
  // Once an RRset does not fit, nothing after it is written (TC); `init.tc` only sets the flag.
  let dropped = false
  const sections = [init.answer ?? [], init.authority ?? [], init.additional ?? []]
  const counts = sections.map((records) => {
    let count = 0
    for (const set of rrsets(records)) {
      if (dropped) break
      const length = w.length
      const mark = comp?.mark() ?? 0
      for (const rr of set) writeRR(w, rr, comp)
      if (w.length > budget) {
        w.truncate(length)
        comp?.rollback(mark)
        dropped = true
        break
      }
      count += set.length
    }
    return count
  })

  if (init.edns)
    writeOpt(w, {
      payload: init.edns.udpPayloadSize ?? OUR_UDP_PAYLOAD,
      extendedRcode: rcode >> 4,
      do: init.edns.do ?? false,
      options: padBlock > 0 ? [padding(w.length, padBlock, maxSize)] : [],
    })
  w.setU16(6, counts[0] ?? 0)
  w.setU16(8, counts[1] ?? 0)
  w.setU16(10, (counts[2] ?? 0) + (init.edns ? 1 : 0))

  const flags =
    0x8000 |
    (((init.opcode ?? OPCODES.QUERY) & 0xf) << 11) |
    (init.aa ? 0x0400 : 0) |
    (dropped || init.tc ? 0x0200 : 0) |
    (init.rd ? 0x0100 : 0) |
    (init.ra ? 0x0080 : 0) |
    (init.ad ? 0x0020 : 0) |
    (init.cd ? 0x0010 : 0) |
    (rcode & 0xf)
  w.setU16(2, flags)
  return w.finish()
}

export interface ResolutionLike {
  rcode: RcodeName | number
  aa: boolean
  /** The result is already known to be incomplete: TC is set whatever fits. */
  tc?: boolean
  answer: ResponseRR[]
  authority: ResponseRR[]
  additional: ResponseRR[]
}

/**
 * The response to a decoded query: echoes id, opcode, RD, CD and the question (original case);
 * echoes OPT with our payload size and the DO bit when the query had EDNS; answers BADVERS for an
 * EDNS version other than 0 and NOTIMP for opcodes other than QUERY (ignoring `result` then).
 * `maxSize` defaults to 512 without EDNS, else min(client payload, 1232); a DoH worker, which is
 * not bound by UDP sizes, may pass 65535.
 */
export function replyTo(
  query: Query,
  result: ResolutionLike,
  options: { maxSize?: number } = {}
): ResponseInit {
  // Padded when the query carried the Padding option (RFC 7830 §4: a responder must then pad).
  const padBlock = query.edns?.options.includes(PADDING) ? RESPONSE_PAD_BLOCK : undefined
  const edns = query.edns
    ? { udpPayloadSize: OUR_UDP_PAYLOAD, do: query.edns.do, ...(padBlock && { padBlock }) }
    : null
  const base: ResponseInit = {
    id: query.id,
    opcode: query.opcode,
    rcode: result.rcode,
    rd: query.rd,
    cd: query.cd,
    question: query.question,
    edns,
    maxSize:
      options.maxSize ?? (query.edns ? Math.min(query.edns.udpPayloadSize, OUR_UDP_PAYLOAD) : 512),
  }
  if (query.edns && query.edns.version !== 0) return { ...base, rcode: 'BADVERS' }
  if (query.opcode !== OPCODES.QUERY) return { ...base, rcode: 'NOTIMP' }
  return {
    ...base,
    // An answer to QCLASS ANY is never authoritative (RFC 6895 §3.2): it holds class IN only.
    aa: result.aa && query.question.class !== CLASSES.ANY,
    tc: result.tc ?? false,
    answer: result.answer,
    authority: result.authority,
    additional: result.additional,
  }
}

/**
 * A reply with `rcode` (FORMERR by default) and no question for a message whose header could be
 * read (see DnsFormatError.header), with an OPT record when the header says the query had one.
 */
export function formErrReply(
  { edns, ...header }: PartialHeader,
  rcode: 'FORMERR' | 'NOTIMP' = 'FORMERR'
): Uint8Array {
  const opt = edns ? { udpPayloadSize: OUR_UDP_PAYLOAD, do: edns.do } : null
  return encodeResponse({ ...header, rcode, edns: opt })
}
