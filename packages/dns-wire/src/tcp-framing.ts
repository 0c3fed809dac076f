/**
 * @module DNS over TCP framing (RFC 1035 §4.2.2, RFC 7766): each message is preceded by its length
 * as two octets. Pure: socket code frames what it writes with `frameTcp` and feeds the chunks it
 * reads into a `TcpMessageSplitter`.
 */
import { DnsFormatError } from './errors.ts'

/** The largest message a two-octet length can frame. */
export const MAX_TCP_MESSAGE = 0xffff

/** `message` with its two-octet length in front. */
export function frameTcp(message: Uint8Array): Uint8Array {
  if (message.length > MAX_TCP_MESSAGE) throw new RangeError('DNS message too long for TCP')
  const out = new Uint8Array(message.length + 2)
  out[0] = message.length >> 8
  out[1] = message.length & 0xff
  out.set(message, 2)
  return out
}

/** Splits a TCP byte stream into DNS messages, whatever the chunking. */
export class TcpMessageSplitter {
  #buffer = new Uint8Array(0)

  /** Adds a chunk; returns the messages it completed, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.#buffer.length + chunk.length)
    joined.set(this.#buffer)
    joined.set(chunk, this.#buffer.length)
    const out: Uint8Array[] = []
    let at = 0
    while (joined.length - at >= 2) {
      const length = (joined[at]! << 8) | joined[at + 1]!
      if (length > MAX_TCP_MESSAGE) throw new DnsFormatError('message longer than TCP allows')
      if (joined.length - at - 2 < length) break
      out.push(joined.slice(at + 2, at + 2 + length))
      at += 2 + length
    }
    this.#buffer = joined.slice(at)
    return out
  }

  /** True when bytes of an unfinished message are held. */
  get pending(): boolean {
    return this.#buffer.length > 0
  }
}
