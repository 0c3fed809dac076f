/**
 * @module Bounds-checked reading of a DNS message, with safe name decompression.
 */
import { DnsFormatError, type PartialHeader } from './errors.ts'
import { labelText, type Labels } from './names.ts'

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
    this.#walkName((pos, len) => labels.push(this.bytes.slice(pos, pos + len)))
    return labels
  }

  /** Steps over the name at the current offset, checked as `name` checks it, copying nothing. */
  skipName(): void {
    this.#walkName(null)
  }

  /**
   * The presentation text of the name at the current offset with its trailing dot ('.' for the
   * root): `fqdn(nameText(name()))`, checked the same way. The text after each compression
   * pointer's target is kept for the reader's message, so a suffix that many names point to (the
   * zone's name in a transfer) is decoded once.
   */
  nameText(): string {
    let text = ''
    let wire = 1
    const targets: [at: number, textAt: number, wireAt: number][] = []
    this.#walkName(
      (pos, len) => {
        text += `${labelText(this.bytes.subarray(pos, pos + len))}.`
        wire += len + 1
      },
      (target) => {
        const known = this.#suffixes.get(target)
        if (known) {
          wire += known.wire
          if (wire > MAX_NAME) this.fail('name longer than 255 octets')
          text += known.text
          return true
        }
        targets.push([target, text.length, wire])
        return false
      }
    )
    for (const [at, textAt, wireAt] of targets)
      this.#suffixes.set(at, { text: text.slice(textAt), wire: wire - wireAt })
    return text === '' ? '.' : text
  }

  /** Text and wire octets (labels only) of the names after compression targets already read. */
  readonly #suffixes = new Map<number, { text: string; wire: number }>()

  /**
   * Walks the name at the current offset, calling `label` with each label's position and length;
   * `jump` is told of each compression target and may end the walk there (true) when it knows the
   * rest. Leaves the offset after the name.
   */
  #walkName(
    label: ((pos: number, len: number) => void) | null,
    jump?: (target: number) => boolean
  ): void {
    const bytes = this.bytes
    let pos = this.offset
    let limit = this.offset
    let jumped = false
    let wire = 1
    for (;;) {
      if (pos >= bytes.length) this.fail('name runs past the end of the message')
      const len = bytes[pos] as number
      if (len === 0) {
        pos++
        break
      }
      const kind = len & 0xc0
      if (kind === 0xc0) {
        if (pos + 1 >= bytes.length) this.fail('truncated compression pointer')
        const target = ((len & 0x3f) << 8) | (bytes[pos + 1] as number)
        if (target >= limit) this.fail('compression pointer does not point backwards')
        if (!jumped) this.offset = pos + 2
        jumped = true
        if (jump?.(target)) return
        limit = target
        pos = target
        continue
      }
      if (kind !== 0) this.fail('unsupported label type')
      wire += len + 1
      if (wire > MAX_NAME) this.fail('name longer than 255 octets')
      if (pos + 1 + len > bytes.length) this.fail('label runs past the end of the message')
      label?.(pos + 1, len)
      pos += 1 + len
    }
    if (!jumped) this.offset = pos
  }
}
