/**
 * @module Packing a transfer's records into as many DNS messages as needed (RFC 5936 §2.2): each
 * message under the size limit, names compressed within a message, the question in the first only.
 * Owner names below the zone's name point to it without a lookup of their own (almost every owner
 * of a zone), so a message of thousands of records is packed without thousands of lookups; a record
 * that gives its owner as the labels below the zone (`TransferRecord.below`) is written from those
 * labels alone, without its whole name being built or checked against the zone's.
 */
import { CLASSES } from '@edgedns/dns-facts'
import {
  ByteWriter,
  Compressor,
  NameError,
  OPT_RR_LENGTH,
  OUR_UDP_PAYLOAD,
  RdataError,
  writeLabelsBelow,
  writeNameBelow,
  writeNameText,
  writeOpt,
  writeRdata,
  type ResponseRR,
} from '@edgedns/dns-wire'

export interface TransferQuestion {
  name: string
  /** AXFR (252) or IXFR (251). */
  type: number
}

/**
 * A record to pack. `below`, when set, is its owner's labels below the transfer's zone (the
 * question's name) in presentation text: `www` for `www.<zone>`. `name` must still be the whole
 * owner; the packer reads it only when the labels cannot be written as they are.
 */
export interface TransferRecord extends ResponseRR {
  readonly below?: string
}

/** A record whose owner is `below` under `zone`: its `name` is built only when it is read. */
export class RecordBelowZone implements TransferRecord {
  readonly below: string
  readonly zone: string
  readonly type: number
  /** Not read-only: a transfer gives every record of an RRset the set's TTL once it has read the set. */
  ttl: number
  readonly rdata: string

  constructor(below: string, zone: string, type: number, ttl: number, rdata: string) {
    this.below = below
    this.zone = zone
    this.type = type
    this.ttl = ttl
    this.rdata = rdata
  }

  get name(): string {
    return `${this.below}.${this.zone}`
  }
}

export interface PackOptions {
  /** The request's ID, echoed in every message. */
  id: number
  question: TransferQuestion
  /**
   * Largest message: default 20,480 octets (BIND's `transfer-message-size`; a BIND secondary
   * spends more CPU a record on messages near the 65,535 the TCP length prefix allows).
   */
  maxSize?: number
  /** Octets to leave free in every message, e.g. `tsigSize(key)` when each will be signed. */
  reserve?: number
  /** The request had EDNS: the first message carries an OPT record (our payload size). */
  edns?: boolean
  /** The request's RD bit, copied into every message (RFC 5936 §2.2.1). */
  rd?: boolean
}

/** Largest message unless the caller says otherwise (see `PackOptions.maxSize`). */
const DEFAULT_MESSAGE_SIZE = 20_480

const FLAGS_QR_AA = 0x8400
const FLAG_RD = 0x0100

function startMessage(
  w: ByteWriter,
  id: number,
  flags: number,
  question: TransferQuestion | null,
  comp: Compressor
): void {
  w.reset()
  w.u16(id)
  w.u16(flags)
  w.u16(question ? 1 : 0)
  w.u16(0)
  w.u16(0)
  w.u16(0)
  if (question) {
    writeNameText(w, question.name, comp)
    w.u16(question.type)
    w.u16(CLASSES.IN)
  }
}

/**
 * Packs a transfer's records one at a time, so a caller streaming records from storage never
 * holds more than one message: `add` returns a message when the record did not fit in the open
 * one, `finish` the last message. A record is never split across messages; one record too large
 * for a message on its own throws RangeError, bad record text RdataError.
 */
export class TransferPacker {
  readonly #budget: number
  readonly #id: number
  readonly #flags: number
  readonly #edns: boolean
  readonly #w = new ByteWriter()
  #comp = new Compressor()
  #count = 0
  #closed = 0
  /** The zone's name as a compression key: most owners are below it. */
  readonly #apex: string
  /** Where the zone's name is in the open message (−1: not known yet, or not in it). */
  #apexAt = -1
  /**
   * The last owner written in the open message, and where (−1: none), for an RRset's next record:
   * its labels below the zone when it was given so, else its whole name.
   */
  #owner = ''
  #ownerBelow: string | undefined
  #ownerAt = -1

  constructor(options: PackOptions) {
    const opt = options.edns ? OPT_RR_LENGTH : 0
    this.#budget =
      Math.min(options.maxSize ?? DEFAULT_MESSAGE_SIZE, 65535) - (options.reserve ?? 0) - opt
    this.#id = options.id
    this.#flags = FLAGS_QR_AA | (options.rd ? FLAG_RD : 0)
    this.#edns = options.edns ?? false
    this.#apex = options.question.name.toLowerCase().replace(/\.$/, '')
    startMessage(this.#w, options.id, this.#flags, options.question, this.#comp)
  }

  /** Where the zone's name is in the open message, or −1. */
  #apexOffset(): number {
    if (this.#apexAt < 0) this.#apexAt = this.#comp.get(this.#apex) ?? -1
    return this.#apexAt
  }

  /**
   * Writes an owner name, compressed: the same owner as the record before points to it, a name
   * below the zone's name points to that (once it is in the message), any other name is
   * compressed against every name before it.
   */
  #writeOwner(rr: TransferRecord): void {
    const w = this.#w
    const at = w.length
    const below = rr.below
    let name = ''
    if (below !== undefined) {
      if (this.#ownerAt >= 0 && below === this.#ownerBelow) {
        w.u16(0xc000 | this.#ownerAt)
        return
      }
      const apexAt = this.#apexOffset()
      if (apexAt < 0 || !writeLabelsBelow(w, below, this.#apex.length, apexAt))
        writeNameText(w, rr.name, this.#comp)
    } else {
      name = rr.name
      if (this.#ownerAt >= 0 && this.#ownerBelow === undefined && name === this.#owner) {
        w.u16(0xc000 | this.#ownerAt)
        return
      }
      const apexAt = this.#apexOffset()
      if (apexAt < 0 || !writeNameBelow(w, name, this.#apex, apexAt))
        writeNameText(w, name, this.#comp)
    }
    if (at <= 0x3fff) {
      this.#owner = name
      this.#ownerBelow = below
      this.#ownerAt = at
    }
  }

  #write(rr: TransferRecord): void {
    try {
      this.#writeOwner(rr)
    } catch (err) {
      if (!(err instanceof NameError)) throw err
      throw new RdataError('owner', err.message)
    }
    const w = this.#w
    w.u16(rr.type)
    w.u16(CLASSES.IN)
    w.u32(Math.max(0, Math.min(rr.ttl, 0x7fffffff)))
    writeRdata(w, rr.type, rr.rdata, this.#comp)
  }

  #close(): Uint8Array {
    const w = this.#w
    w.setU16(6, this.#count)
    if (this.#edns && this.#closed === 0) {
      writeOpt(w, { payload: OUR_UDP_PAYLOAD })
      w.setU16(10, 1)
    }
    this.#closed++
    return w.finish()
  }

  add(rr: TransferRecord): Uint8Array | null {
    const w = this.#w
    const before = w.length
    const mark = this.#comp.mark()
    const owner = this.#owner
    const ownerBelow = this.#ownerBelow
    const ownerAt = this.#ownerAt
    this.#write(rr)
    if (w.length <= this.#budget) {
      this.#count++
      return null
    }
    w.truncate(before)
    this.#comp.rollback(mark)
    this.#apexAt = -1
    this.#owner = owner
    this.#ownerBelow = ownerBelow
    this.#ownerAt = ownerAt
    if (this.#count === 0) throw new RangeError(`record ${rr.name} does not fit in one message`)
    const full = this.#close()
    this.#comp = new Compressor()
    this.#apexAt = -1
    this.#ownerAt = -1
    startMessage(w, this.#id, this.#flags, null, this.#comp)
    this.#count = 0
    this.#write(rr)
    if (w.length > this.#budget)
      throw new RangeError(`record ${rr.name} does not fit in one message`)
    this.#count++
    return full
  }

  /** The last message, or null when it would be empty after earlier ones. */
  finish(): Uint8Array | null {
    return this.#count > 0 || this.#closed === 0 ? this.#close() : null
  }
}

/**
 * The answer messages of a transfer, in order (see `TransferPacker`).
 */
export function packTransfer(
  records: Iterable<TransferRecord>,
  options: PackOptions
): Uint8Array[] {
  const packer = new TransferPacker(options)
  const messages: Uint8Array[] = []
  for (const rr of records) {
    const full = packer.add(rr)
    if (full) messages.push(full)
  }
  const last = packer.finish()
  if (last) messages.push(last)
  return messages
}
