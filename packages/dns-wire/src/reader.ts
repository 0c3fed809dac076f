/**
 * @module Bounds-checked reading of a DNS message, with safe name decompression.
 */
import { DnsFormatError, type PartialHeader } from './errors.ts'
import type { Labels } from './names.ts'

const MAX_NAME = 255

export class Reader {
  offset = 0
  header?: PartialHeader

  readonly bytes: Uint8Array

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  fail(message: string): never {
    throw new DnsFormatError(message, this.header)
  }

  #need(n: number): void {
    if (this.offset + n > this.bytes.length) this.fail('message truncated')
  }

  u8(): number {
    this.#need(1)
    return this.bytes[this.offset++] as number
  }

  u16(): number {
    this.#need(2)
    const v = ((this.bytes[this.offset] as number) << 8) | (this.bytes[this.offset + 1] as number)
    this.offset += 2
    return v
  }

  u32(): number {
    return this.u16() * 0x10000 + this.u16()
  }

  /** The next `n` bytes (a view, not a copy). */
  take(n: number): Uint8Array {
    this.#need(n)
    const out = this.bytes.subarray(this.offset, this.offset + n)
    this.offset += n
    return out
  }

  skip(n: number): void {
    this.#need(n)
    this.offset += n
  }

  /**
   * A name at the current offset. Compression pointers must point strictly before the previous
   * jump, so they cannot loop; labels are ≤ 63 octets and the name ≤ 255 octets on the wire.
   */
  name(): Labels {
    const labels: Labels = []
    let pos = this.offset
    let limit = this.offset
    let jumped = false
    let wire = 1
    for (;;) {
      if (pos >= this.bytes.length) this.fail('name runs past the end of the message')
      const len = this.bytes[pos] as number
      if (len === 0) {
        pos++
        break
      }
      const kind = len & 0xc0
      if (kind === 0xc0) {
        if (pos + 1 >= this.bytes.length) this.fail('truncated compression pointer')
        const target = ((len & 0x3f) << 8) | (this.bytes[pos + 1] as number)
        if (target >= limit) this.fail('compression pointer does not point backwards')
        if (!jumped) this.offset = pos + 2
        jumped = true
        limit = target
        pos = target
        continue
      }
      if (kind !== 0) this.fail('unsupported label type')
      wire += len + 1
      if (wire > MAX_NAME) this.fail('name longer than 255 octets')
      if (pos + 1 + len > this.bytes.length) this.fail('label runs past the end of the message')
      labels.push(this.bytes.slice(pos + 1, pos + 1 + len))
      pos += 1 + len
    }
    if (!jumped) this.offset = pos
    return labels
  }
}
