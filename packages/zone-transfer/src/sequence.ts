/**
 * @module The record sequence of a transfer answer, read one record at a time as it arrives:
 * RFC 5936 §2.2 (AXFR: SOA, records, SOA) and RFC 1995 §4 (IXFR: the final SOA, then difference
 * sequences of old SOA, deletions, new SOA, additions, each starting from the serial the one
 * before ended at and the first from the serial we asked from, then the final SOA again). Only the
 * state of the sequence is kept, never its records, so a zone of any size streams through.
 */
import { CLASSES, TYPE_CODES } from '@edgedns/dns-facts'
import type { MessageRR } from '@edgedns/dns-wire'
import { serialAfter, soaSerial } from './soa.ts'

/** A transfer answer that cannot be used (wrong id, error rcode, broken record sequence). */
export class TransferError extends Error {
  override name = 'TransferError'
}

/**
 * An IXFR answer in the incremental form whose difference sequences are malformed (serials that
 * do not chain from ours to the final one, a SOA away from the apex): the primary's IXFR cannot be
 * used, and asking AXFR instead may well succeed. A subclass of TransferError.
 */
export class IxfrError extends TransferError {
  override name = 'IxfrError'
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

/** A name compared with others: lower case (ASCII, as DNS compares), no trailing dot. */
export const nameKey = (name: string): string => name.toLowerCase().replace(/\.$/, '')

const serialOf = (rr: MessageRR): number => soaSerial(rr.data)

/**
 * Where the reader is: before the second record; in a whole zone; in the deletions of an IXFR
 * difference (after its old SOA) or its additions (after its new SOA).
 */
type Mode = 'start' | 'axfr' | 'delete' | 'add'

export class TransferSequence {
  readonly #apex: string
  readonly #ixfrFrom: number | undefined
  readonly #sink: RecordSink
  #first: MessageRR | null = null
  #final = 0
  #mode: Mode = 'start'
  /** IXFR: the old serial of the difference being read, and the serial the differences reached. */
  #from = 0
  #at = 0
  #records = 0
  /** NS records at the apex among a whole zone's records. */
  #apexNs = 0
  #closing: MessageRR | null = null

  /**
   * `zone`: the zone's name; `ixfrFrom`: for an IXFR request, the serial we asked from (undefined
   * for AXFR); `sink` is given every record but the SOAs that frame the sequence.
   */
  constructor(zone: string, ixfrFrom: number | undefined, sink: RecordSink) {
    this.#apex = nameKey(zone)
    this.#ixfrFrom = ixfrFrom
    this.#sink = sink
  }

  /** The opening SOA, once it has arrived. */
  get first(): MessageRR | null {
    return this.#first
  }

  /** True once the closing SOA has arrived. */
  get closed(): boolean {
    return this.#closing !== null
  }

  /** True while only the opening SOA has arrived. */
  get onlyFirst(): boolean {
    return this.#first !== null && this.#mode === 'start' && this.#closing === null
  }

  /** The answer, once closed. */
  outcome(): TransferOutcome {
    const soa = this.#first
    if (!soa || !this.#closing) throw new TransferError('the transfer has not ended')
    const whole = this.#mode === 'start' || this.#mode === 'axfr'
    return { kind: whole ? 'axfr' : 'ixfr', soa, records: this.#records }
  }

  /** The next record of the answer's answer sections. */
  async push(rr: MessageRR): Promise<void> {
    if (this.#closing) throw new TransferError('records after the closing SOA')
    // A zone of class IN is transferred in class IN only (RFC 5936 §2.2: the records of a transfer
    // are of the zone's class); BIND refuses such an answer as malformed.
    if (rr.class !== CLASSES.IN)
      throw new TransferError(
        `a record of class ${rr.class} at ${rr.name}: the zone is of class IN`
      )
    const mode = this.#mode
    if (rr.typeCode !== TYPE_CODES.SOA) {
      if (this.#first === null) throw new TransferError('the answer does not start with the SOA')
      if (mode === 'start') this.#mode = 'axfr'
      if (rr.typeCode === TYPE_CODES.NS && nameKey(rr.name) === this.#apex) this.#apexNs++
      await this.#sink(mode === 'delete' ? 'delete' : 'add', rr)
      this.#records++
      return
    }
    if (nameKey(rr.name) !== this.#apex) {
      const where = `a SOA record at ${rr.name}, not at the zone's apex ${this.#apex}.`
      throw mode === 'delete' || mode === 'add' ? new IxfrError(where) : new TransferError(where)
    }
    const serial = serialOf(rr)
    if (this.#first === null) {
      this.#first = rr
      this.#final = serial
      return
    }
    if (mode === 'start') return this.#second(rr, serial)
    if (mode === 'axfr') return this.#close(rr, serial)
    if (mode === 'delete') return this.#newSoa(serial)
    return this.#afterAdditions(rr, serial)
  }

  /** A SOA right after the opening one: an empty zone's closing SOA, or the first old SOA. */
  #second(rr: MessageRR, serial: number): void {
    const from = this.#ixfrFrom
    if (from === undefined || serial === this.#final) return this.#close(rr, serial)
    if (serial !== from)
      throw new IxfrError(
        `the IXFR's first difference is from serial ${serial}, not ours (${from})`
      )
    this.#from = serial
    this.#mode = 'delete'
  }

  /** The new SOA of a difference: after its old one, not beyond the final one. */
  #newSoa(serial: number): void {
    if (!serialAfter(serial, this.#from))
      throw new IxfrError(`an IXFR difference goes from serial ${this.#from} to ${serial}`)
    if (serialAfter(serial, this.#final))
      throw new IxfrError(`an IXFR difference goes to serial ${serial}, past ${this.#final}`)
    this.#at = serial
    this.#mode = 'add'
  }

  /** A SOA after a difference's additions: the final SOA, or the next difference's old SOA. */
  #afterAdditions(rr: MessageRR, serial: number): void {
    const at = this.#at
    if (serial === at && at === this.#final) return this.#close(rr, serial)
    if (serial === at) {
      this.#from = serial
      this.#mode = 'delete'
      return
    }
    throw new IxfrError(
      serial === this.#final
        ? `the IXFR ends at serial ${serial} but its differences reach only ${at}`
        : `an IXFR difference is from serial ${serial}, not ${at} where the one before ended`
    )
  }

  #close(rr: MessageRR, serial: number): void {
    if (serial !== this.#final)
      throw new TransferError(`the closing SOA has serial ${serial}, the first ${this.#final}`)
    // A whole zone has NS records at its apex (RFC 1034 §4.2.1); BIND refuses one without.
    const whole = this.#mode === 'start' || this.#mode === 'axfr'
    if (whole && this.#apexNs === 0)
      throw new TransferError(`the zone has no NS records at its apex ${this.#apex}.`)
    this.#closing = rr
  }
}
