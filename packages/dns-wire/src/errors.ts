/**
 * @module Typed errors: DnsFormatError for malformed messages, RdataError for bad record text.
 */

/** Header fields recovered from a message that failed to parse, enough for a FORMERR reply. */
export interface PartialHeader {
  id: number
  opcode: number
  rd: boolean
  cd: boolean
  /**
   * The query's one well-formed OPT record's DO bit, when its records could be read to the end
   * (a message refused for its question count alone): its FORMERR then carries an OPT record,
   * as RFC 6891 §6.1.1 asks of every answer to a query with one.
   */
  edns?: { do: boolean }
}

/**
 * The one error for malformed DNS input: the worker answers FORMERR (wire) or HTTP 400.
 * `header` is set when the 12-byte header could be read.
 */
export class DnsFormatError extends Error {
  override name = 'DnsFormatError'
  readonly header: PartialHeader | undefined

  constructor(message: string, header?: PartialHeader) {
    super(message)
    this.header = header
  }
}

/**
 * Record presentation text that cannot be encoded (stored data, not the client's fault: the
 * worker answers SERVFAIL). `type` is the RR type mnemonic.
 */
export class RdataError extends Error {
  override name = 'RdataError'
  readonly type: string

  constructor(type: string, message: string) {
    super(`${type}: ${message}`)
    this.type = type
  }
}
