/**
 * @module The secondary's side of a transfer: the request (SOA check, AXFR, IXFR with our SOA in
 * the authority section), optionally TSIG-signed; the TCP message stream split into messages; and
 * the answer read message by message (TSIG stream rules of RFC 8945 §5.3.1, RFC 5936 / RFC 1995
 * record sequences), each record handed to a sink as it arrives so the caller never holds a zone.
 */
import { CLASSES, OPCODES, TYPE_CODES, typeName } from '@edgedns/dns-facts'
import {
  ByteWriter,
  decodeMessage,
  parseName,
  writeName,
  type Message,
  type MessageRR,
} from '@edgedns/dns-wire'
import {
  TransferError,
  TransferSequence,
  nameKey,
  type RecordSink,
  type TransferOutcome,
} from './sequence.ts'
import { serialAfter, soaSerial } from './soa.ts'
import { signMessage } from './tsig.ts'
import { TsigStreamVerifier } from './tsig-stream.ts'
import type { TsigKey } from './tsig-key.ts'

export { IxfrError, TransferError, type RecordSink, type TransferOutcome } from './sequence.ts'

export interface TransferRequest {
  /** Zone name, no trailing dot. */
  zone: string
  kind: 'SOA' | 'AXFR' | 'IXFR'
  id: number
  /** IXFR only: the SOA rdata we hold (its serial is what the primary diffs from). */
  soa?: string
  key?: TsigKey
  /** Seconds since the epoch (TSIG time signed). */
  now: number
}

export interface SignedRequest {
  message: Uint8Array
  /** The request MAC the answer's first TSIG covers; undefined when unsigned. */
  mac: Uint8Array | undefined
}

function soaRdataWire(w: ByteWriter, rdata: string): void {
  const parts = rdata.trim().split(/\s+/)
  writeName(w, parseName(parts[0]!.replace(/\.$/, '')))
  writeName(w, parseName(parts[1]!.replace(/\.$/, '')))
  for (const n of parts.slice(2, 7)) w.u32(Number(n) >>> 0)
}

/** The request message, signed when `key` is given. */
export async function transferRequest(r: TransferRequest): Promise<SignedRequest> {
  const w = new ByteWriter()
  const type = TYPE_CODES[r.kind]
  w.u16(r.id)
  w.u16(0)
  w.u16(1)
  w.u16(0)
  w.u16(r.kind === 'IXFR' ? 1 : 0)
  w.u16(0)
  writeName(w, parseName(r.zone))
  w.u16(type)
  w.u16(CLASSES.IN)
  if (r.kind === 'IXFR') {
    if (!r.soa) throw new RangeError('an IXFR request carries the SOA we hold')
    writeName(w, parseName(r.zone))
    w.u16(TYPE_CODES.SOA)
    w.u16(CLASSES.IN)
    w.u32(0)
    const lengthAt = w.length
    w.u16(0)
    soaRdataWire(w, r.soa)
    w.setU16(lengthAt, w.length - lengthAt - 2)
  }
  const message = w.finish()
  if (!r.key) return { message, mac: undefined }
  const signed = await signMessage(message, r.key, { time: r.now })
  return { message: signed.message, mac: signed.mac }
}

export interface ReadOptions {
  request: { id: number; zone: string; kind: 'AXFR' | 'IXFR'; mac: Uint8Array | undefined }
  /** The key the request was signed with: the answer must be signed with it. */
  key?: TsigKey
  /** IXFR: the serial we hold. */
  serial?: number
  now: () => number
  sink: RecordSink
}

/** The question an answer echoes: the zone (see `nameKey`) and the type asked. */
interface Question {
  name: string
  type: number
}

/** What one message of an answer must be: ours, a QUERY answer, echoing our question if any. */
function checkMessage(m: Message, id: number, question: Question, first: boolean): void {
  if (m.id !== id) throw new TransferError(`answer id ${m.id} is not the request's`)
  if (!m.qr) throw new TransferError('not an answer')
  if (m.opcode !== OPCODES.QUERY) throw new TransferError(`an answer with opcode ${m.opcode}`)
  if (m.question.length > 1) throw new TransferError('an answer with several questions')
  const q = m.question[0]
  if (
    q &&
    (nameKey(q.name) !== question.name || q.typeCode !== question.type || q.class !== CLASSES.IN)
  ) {
    const ours = `${question.name}. ${typeName(question.type)} IN`
    throw new TransferError(`an answer to ${q.name} ${q.type} class ${q.class}, not to ${ours}`)
  }
  if (m.rcode !== 0) throw new TransferError(`the primary answered rcode ${m.rcode}`)
  // RFC 5936 §2.2.1: the first message copies the question; later ones may leave it out.
  if (!q && first) throw new TransferError('the answer does not echo our question')
}

/**
 * Reads a transfer answer from its messages and returns once the closing SOA has arrived; each
 * message is checked against the request and the record sequence as it goes (RFC 5936 §2.2,
 * RFC 1995 §4), records going to `sink` one at a time. Throws IxfrError (an IXFR's difference
 * sequences are malformed: AXFR may work), TransferError (answer unusable), TsigError (signatures)
 * or DnsFormatError (malformed messages); a stream that ends early is a TransferError too.
 */
export async function readTransfer(
  messages: AsyncIterable<Uint8Array>,
  o: ReadOptions
): Promise<TransferOutcome> {
  const verifier = o.key ? new TsigStreamVerifier(o.key, o.request.mac, o.now) : null
  const { id, kind } = o.request
  const question = { name: nameKey(o.request.zone), type: TYPE_CODES[kind] }
  const ixfrFrom = kind === 'IXFR' ? o.serial : undefined
  const sequence = new TransferSequence(o.request.zone, ixfrFrom, o.sink)
  let first = true
  for await (const raw of messages) {
    if (sequence.closed) throw new TransferError('messages after the closing SOA')
    const body = verifier ? await verifier.next(raw) : raw
    const m = decodeMessage(body)
    checkMessage(m, id, question, first)
    first = false
    for (const rr of m.answer) await sequence.push(rr)
    // An IXFR answered with the SOA alone: we are current (RFC 1995 §4).
    const soa = sequence.first
    if (soa && sequence.onlyFirst && ixfrFrom !== undefined && m.answer.length === 1)
      if (!serialAfter(soaSerial(soa.data), ixfrFrom)) {
        verifier?.finish()
        return { kind: 'current', soa }
      }
    if (sequence.closed) {
      verifier?.finish()
      return sequence.outcome()
    }
  }
  throw new TransferError('the connection closed before the transfer ended')
}

/** Reads the SOA out of a (verified, unsigned) answer to a SOA query. */
export function soaOfAnswer(message: Uint8Array, id: number, zone: string): MessageRR {
  const m = decodeMessage(message)
  const name = nameKey(zone)
  checkMessage(m, id, { name, type: TYPE_CODES.SOA }, true)
  const soa = m.answer.find((rr) => rr.typeCode === TYPE_CODES.SOA && nameKey(rr.name) === name)
  if (!soa) throw new TransferError(`the primary has no SOA for ${zone}`)
  return soa
}
