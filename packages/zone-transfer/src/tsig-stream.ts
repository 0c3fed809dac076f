/**
 * @module TSIG over a response stream (RFC 8945 §5.3.1): the server's signer of an answer's
 * messages, each chained to the MAC before it, and the client's verifier of such a stream.
 */
import { canonical, type TsigKey } from './tsig-key.ts'
import { splitTsig } from './tsig-record.ts'
import {
  checkTime,
  DEFAULT_FUDGE,
  macMatches,
  MAX_UNSIGNED_RUN,
  signMessage,
  TSIG_ERRORS,
  TsigError,
  type TsigErrorName,
} from './tsig.ts'

/**
 * Signs the messages of one response stream (a single answer, or every message of an AXFR/IXFR):
 * the first covers the request MAC and all variables, each later one the prior MAC and the timers.
 */
export class TsigStreamSigner {
  readonly #key: TsigKey
  readonly #clock: () => number
  readonly #fudge: number
  #previousMac: Uint8Array
  #pending: Uint8Array[] = []
  #first = true

  /**
   * `time` is the signing time in seconds since the epoch, or a clock read as each message is
   * signed: a stream that lasts longer than the fudge stays within it at the receiver, which
   * checks every signed message's time (RFC 8945 §5.3.1).
   */
  constructor(
    key: TsigKey,
    requestMac: Uint8Array,
    time: number | (() => number),
    fudge = DEFAULT_FUDGE
  ) {
    this.#key = key
    this.#previousMac = requestMac
    this.#clock = typeof time === 'number' ? () => time : time
    this.#fudge = fudge
  }

  async sign(message: Uint8Array): Promise<Uint8Array> {
    const signed = await signMessage(message, this.#key, {
      time: this.#clock(),
      fudge: this.#fudge,
      previousMac: this.#previousMac,
      timersOnly: !this.#first,
      preceding: this.#pending,
    })
    this.#first = false
    this.#pending = []
    this.#previousMac = signed.mac
    return signed.message
  }

  /**
   * Sends a later message unsigned (RFC 8945 allows up to 99 in a row); the next signed message
   * covers it. The first message is always signed.
   */
  skip(message: Uint8Array): Uint8Array {
    if (this.#first) throw new RangeError('the first message of a response must be signed')
    this.#pending.push(message)
    return message
  }
}

/**
 * Verifies a response stream as a client (RFC 8945 §5.3.1): the first message must be signed;
 * later ones may be unsigned, at most 99 in a row, and the next signed message covers them all;
 * the last message must be signed (`finish`). Each signed message must be within its fudge.
 * Failures throw TsigError (or DnsFormatError for malformed messages).
 */
export class TsigStreamVerifier {
  readonly #key: TsigKey
  readonly #now: () => number
  #previousMac: Uint8Array | undefined
  #pending: Uint8Array[] = []
  #first = true

  constructor(key: TsigKey, requestMac: Uint8Array | undefined, now: () => number) {
    this.#key = key
    this.#previousMac = requestMac
    this.#now = now
  }

  /** Checks the next message; returns it without its TSIG record. */
  async next(message: Uint8Array): Promise<Uint8Array> {
    const { unsigned, tsig } = splitTsig(message)
    if (!tsig) {
      if (this.#first) throw new TsigError('BADSIG', 'the first message of a response is unsigned')
      if (this.#pending.length >= MAX_UNSIGNED_RUN) {
        throw new TsigError('BADSIG', `more than ${MAX_UNSIGNED_RUN} unsigned messages in a row`)
      }
      this.#pending.push(unsigned)
      return unsigned
    }
    if (tsig.keyName !== canonical(this.#key.name) || tsig.algorithm !== this.#key.algorithm) {
      throw new TsigError('BADKEY', `signed with ${tsig.keyName} (${tsig.algorithm})`)
    }
    if (tsig.error !== 0) {
      const name = Object.entries(TSIG_ERRORS).find(([, code]) => code === tsig.error)?.[0]
      throw new TsigError(
        (name as TsigErrorName | undefined) ?? 'BADSIG',
        'the server refused our TSIG'
      )
    }
    await macMatches(this.#key, tsig, this.#previousMac, [...this.#pending, unsigned], !this.#first)
    checkTime(tsig, this.#now())
    this.#first = false
    this.#pending = []
    this.#previousMac = tsig.mac
    return unsigned
  }

  /** Throws unless the stream ended on a signed message. */
  finish(): void {
    if (this.#first || this.#pending.length > 0) {
      throw new TsigError('BADSIG', 'the response stream did not end with a signed message')
    }
  }
}
