/**
 * @module The secondary's side of a transfer: the request (SOA check, AXFR, IXFR with our SOA in
 * the authority section), optionally TSIG-signed; the TCP message stream split into messages; and
 * the answer read message by message (TSIG stream rules of RFC 8945 §5.3.1, RFC 5936 / RFC 1995
 * record sequences), each record handed to a sink as it arrives so the caller never holds a zone.
 */
import { CLASSES, TYPE_CODES } from '@edgedns/dns-facts'
import { ByteWriter, decodeMessage, parseName, writeName, type MessageRR } from '@edgedns/dns-wire'
import { serialAfter, soaSerial } from './soa.ts'
import { signMessage } from './tsig.ts'
import { TsigStreamVerifier } from './tsig-stream.ts'
import type { TsigKey } from './tsig-key.ts'

/** A transfer answer that cannot be used (wrong id, error rcode, broken record sequence). */
export class TransferError extends Error {
  override name = 'TransferError'
}

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

/** What a transfer answer turned out to be. */
export type TransferOutcome =
  /** The primary's serial is not newer than ours (an IXFR answered with its SOA alone). */
  | { kind: 'current'; soa: MessageRR }
  /** A whole zone: every record went to the sink as `add`. */
  | { kind: 'axfr'; soa: MessageRR; records: number }
  /** Differences: `delete` and `add` went to the sink in the order to apply them. */
  | { kind: 'ixfr'; soa: MessageRR; records: number }

export type RecordSink = (op: 'add' | 'delete', rr: MessageRR) => Promise<void> | void

export interface ReadOptions {
  request: { id: number; zone: string; kind: 'AXFR' | 'IXFR'; mac: Uint8Array | undefined }
  /** The key the request was signed with: the answer must be signed with it. */
  key?: TsigKey
  /** IXFR: the serial we hold. */
  serial?: number
  now: () => number
  sink: RecordSink
}

const serialOf = (rr: MessageRR): number => soaSerial(rr.data)

/**
 * Reads a transfer answer from its messages and returns once the closing SOA has arrived; the
 * record sequence is checked as it goes (RFC 5936 §2.2, RFC 1995 §4) and records go to `sink`
 * one at a time. Throws TransferError (answer unusable), TsigError (signatures) or
 * DnsFormatError (malformed messages); a stream that ends early is a TransferError too.
 */
export async function readTransfer(
  messages: AsyncIterable<Uint8Array>,
  o: ReadOptions
): Promise<TransferOutcome> {
  const verifier = o.key ? new TsigStreamVerifier(o.key, o.request.mac, o.now) : null
  const zone = `${o.request.zone.toLowerCase()}.`
  let first: MessageRR | null = null
  // IXFR state: 'start' before the second record; then 'delete' / 'add' within a step.
  let mode: 'start' | 'axfr' | 'delete' | 'add' = 'start'
  let count = 0
  let closing: MessageRR | null = null
  const isSoa = (rr: MessageRR) => rr.typeCode === TYPE_CODES.SOA
  for await (const raw of messages) {
    if (closing) throw new TransferError('messages after the closing SOA')
    const body = verifier ? await verifier.next(raw) : raw
    const m = decodeMessage(body)
    if (m.id !== o.request.id) throw new TransferError(`answer id ${m.id} is not the request's`)
    if (!m.qr) throw new TransferError('not an answer')
    if (m.rcode !== 0) throw new TransferError(`the primary answered rcode ${m.rcode}`)
    for (const rr of m.answer) {
      if (closing) throw new TransferError('records after the closing SOA')
      if (first === null) {
        if (!isSoa(rr) || rr.name.toLowerCase() !== zone)
          throw new TransferError('the answer does not start with the zone SOA')
        first = rr
        continue
      }
      const soa = isSoa(rr)
      if (mode === 'start') {
        if (o.request.kind === 'IXFR' && soa && o.serial !== undefined) {
          if (serialOf(rr) !== o.serial) {
            // SOA, SOA: a whole zone holding nothing else.
            if (serialOf(rr) === serialOf(first)) closing = rr
            else throw new TransferError('the IXFR does not start from our serial')
          } else mode = 'delete'
          continue
        }
        if (soa) {
          closing = rr
          continue
        }
        mode = 'axfr'
      }
      if (mode === 'axfr') {
        if (soa) closing = rr
        else {
          await o.sink('add', rr)
          count++
        }
        continue
      }
      if (soa) {
        if (mode === 'delete') mode = 'add'
        else if (serialOf(rr) === serialOf(first)) closing = rr
        else mode = 'delete'
        continue
      }
      await o.sink(mode, rr)
      count++
    }
    // An IXFR answered with the SOA alone: we are current (RFC 1995 §4).
    if (!closing && first && mode === 'start' && o.request.kind === 'IXFR' && m.answer.length === 1)
      if (o.serial !== undefined && !serialAfter(serialOf(first), o.serial)) {
        verifier?.finish()
        return { kind: 'current', soa: first }
      }
    if (closing) {
      if (serialOf(closing) !== serialOf(first!))
        throw new TransferError('the closing SOA has another serial than the first')
      verifier?.finish()
      // SOA, records…, SOA (or SOA, SOA: a zone with no other record) is a whole zone.
      if (mode === 'start' || mode === 'axfr') return { kind: 'axfr', soa: first!, records: count }
      return { kind: 'ixfr', soa: first!, records: count }
    }
  }
  throw new TransferError('the connection closed before the transfer ended')
}

/** Reads the SOA out of a (verified, unsigned) answer to a SOA query. */
export function soaOfAnswer(message: Uint8Array, id: number, zone: string): MessageRR {
  const m = decodeMessage(message)
  if (m.id !== id || !m.qr) throw new TransferError('not the answer to our SOA query')
  if (m.rcode !== 0) throw new TransferError(`the primary answered rcode ${m.rcode}`)
  const name = `${zone.toLowerCase()}.`
  const soa = m.answer.find(
    (rr) => rr.typeCode === TYPE_CODES.SOA && rr.name.toLowerCase() === name
  )
  if (!soa) throw new TransferError(`the primary has no SOA for ${zone}`)
  return soa
}
