/**
 * @module A growable big-endian byte writer with rollback.
 */

export class ByteWriter {
  #buf = new Uint8Array(512)
  #len = 0

  get length(): number {
    return this.#len
  }

  #room(n: number): void {
    if (this.#len + n <= this.#buf.length) return
    let size = this.#buf.length * 2
    while (size < this.#len + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.#buf.subarray(0, this.#len))
    this.#buf = next
  }

  u8(v: number): void {
    this.#room(1)
    this.#buf[this.#len++] = v & 0xff
  }

  u16(v: number): void {
    this.#room(2)
    this.#buf[this.#len++] = (v >>> 8) & 0xff
    this.#buf[this.#len++] = v & 0xff
  }

  u32(v: number): void {
    this.u16(Math.floor(v / 0x10000) & 0xffff)
    this.u16(v & 0xffff)
  }

  bytes(b: Uint8Array): void {
    this.#room(b.length)
    this.#buf.set(b, this.#len)
    this.#len += b.length
  }

  /** The characters `start`…`end − 1` of `text`, one octet each (text known to be ASCII). */
  ascii(text: string, start: number, end: number): void {
    this.#room(end - start)
    const buf = this.#buf
    let at = this.#len
    for (let i = start; i < end; i++) buf[at++] = text.charCodeAt(i)
    this.#len = at
  }

  /**
   * The characters `0`…`end − 1` of `text`, dot-separated labels, as length-prefixed labels in one
   * pass: false, with nothing written, when a character is not marked 1 in `allowed` (by its code)
   * or a label is empty or longer than `maxLabel`.
   */
  labels(text: string, end: number, allowed: Uint8Array, maxLabel: number): boolean {
    this.#room(end + 1)
    const buf = this.#buf
    let lengthAt = this.#len
    let at = lengthAt + 1
    for (let i = 0; i < end; i++) {
      const c = text.charCodeAt(i)
      if (c === 0x2e) {
        const length = at - lengthAt - 1
        if (length === 0 || length > maxLabel) return false
        buf[lengthAt] = length
        lengthAt = at++
      } else if (allowed[c] === 1) buf[at++] = c
      else return false
    }
    const length = at - lengthAt - 1
    if (length === 0 || length > maxLabel) return false
    buf[lengthAt] = length
    this.#len = at
    return true
  }

  /** Overwrites a 16-bit value already written at `offset`. */
  setU16(offset: number, v: number): void {
    this.#buf[offset] = (v >>> 8) & 0xff
    this.#buf[offset + 1] = v & 0xff
  }

  /** Empties the writer, keeping its buffer (a writer reused for message after message). */
  reset(): void {
    this.#len = 0
  }

  /** Drops everything written after `length`. */
  truncate(length: number): void {
    this.#len = length
  }

  finish(): Uint8Array {
    return this.#buf.slice(0, this.#len)
  }
}
