/**
 * @module DNS over TCP framing (RFC 1035 §4.2.2, RFC 7766): each message is preceded by its length
 * as two octets. Pure: the Worker's socket code feeds the chunks it reads into `TcpMessageReader`.
 */

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

/** Collects chunks read from a TCP stream until the first whole message has arrived. */
export class TcpMessageReader {
  private buffered = new Uint8Array(0)

  /** Adds a chunk; returns the first complete message once it is all there, else null. */
  push(chunk: Uint8Array): Uint8Array | null {
    const next = new Uint8Array(this.buffered.length + chunk.length)
    next.set(this.buffered)
    next.set(chunk, this.buffered.length)
    this.buffered = next
    if (next.length < 2) return null
    const length = (next[0]! << 8) | next[1]!
    if (next.length < 2 + length) return null
    return next.slice(2, 2 + length)
  }

  /** Octets received so far (length prefix included). */
  get received(): number {
    return this.buffered.length
  }
}
