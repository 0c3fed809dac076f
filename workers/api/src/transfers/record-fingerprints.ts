/**
 * @module Fingerprints of an AXFR's records, kept while it is received so that its difference from
 * the copy the zone holds can be found for a zone of any size (axfr-difference.ts): 96 bits of each
 * record's `stagedValue` (its identity, TTL and data) in typed arrays, about 21 bytes a record
 * however long the record is, and none of the records themselves.
 *
 * Two records of equal fingerprints are taken as the same record. Three 32-bit hashes of different
 * constructions are kept; for an AXFR of a million records into a zone of a million, the chance
 * that some changed record is taken for an unchanged one is about 10^-17.
 */
import { avalanche32 as mix } from '@edgedns/kv-layout'

/** Writes the three hashes of `s` to `out` at `at`, `at + 1`, `at + 2`. */
export function fingerprint(s: string, out: Uint32Array, at: number): void {
  let a = 0x811c9dc5
  let b = 0x9747b28c ^ s.length
  let c = 0x2b7e1516
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i)
    a = Math.imul(a ^ ch, 0x01000193) // FNV-1a
    b = Math.imul(b ^ ch, 0x5bd1e995) // MurmurHash2's multiplier, with a shift
    b ^= b >>> 15
    c = Math.imul(c + ch, 0x27d4eb2d) // add, multiply, rotate
    c = (c << 13) | (c >>> 19)
  }
  out[at] = mix(a ^ s.length)
  out[at + 1] = mix(b)
  out[at + 2] = mix(c)
}

/** The fingerprints of up to `limit` records, found by value once all are added. */
export class Fingerprints {
  #lanes = new Uint32Array(3 * 1024)
  #n = 0
  /** Open addressing on the first hash: a record's index + 1 in each used slot (0: empty). */
  #table: Uint32Array | null = null
  readonly #probe = new Uint32Array(3)

  constructor(readonly limit: number) {}

  /** Records added. */
  get size(): number {
    return this.#n
  }

  /** Adds the next record's value; false, adding nothing, once `limit` records are held. */
  add(value: string): boolean {
    if (this.#n >= this.limit) return false
    if (3 * this.#n + 3 > this.#lanes.length) {
      const grown = new Uint32Array(Math.min(2 * this.#lanes.length, 3 * this.limit))
      grown.set(this.#lanes)
      this.#lanes = grown
    }
    fingerprint(value, this.#lanes, 3 * this.#n)
    this.#n++
    this.#table = null
    return true
  }

  /** The index (order added) of a record of this value, or -1. Equal values: the first added. */
  find(value: string): number {
    fingerprint(value, this.#probe, 0)
    return this.#first(this.#probe, 0)
  }

  /** The index of the first record added with the same fingerprint as record `i` (`i` itself when none). */
  firstEqual(i: number): number {
    if (!(i >= 0 && i < this.#n)) throw new RangeError(`fingerprints: no record ${i}`)
    return this.#first(this.#lanes, 3 * i)
  }

  /** The first record added whose three hashes are `q[at]`, `q[at + 1]`, `q[at + 2]`, or -1. */
  #first(q: Uint32Array, at: number): number {
    const table = (this.#table ??= this.#index())
    const mask = table.length - 1
    const lanes = this.#lanes
    const a = q[at]!
    const b = q[at + 1]!
    const c = q[at + 2]!
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot]!
      if (entry === 0) return -1
      const k = 3 * (entry - 1)
      if (lanes[k] === a && lanes[k + 1] === b && lanes[k + 2] === c) return entry - 1
    }
  }

  #index(): Uint32Array {
    // At most three quarters full: linear probing stays short, the table at most 8 bytes a record.
    let size = 1024
    while (3 * size < 4 * this.#n) size *= 2
    const table = new Uint32Array(size)
    const mask = size - 1
    for (let i = 0; i < this.#n; i++) {
      let slot = this.#lanes[3 * i]! & mask
      while (table[slot] !== 0) slot = (slot + 1) & mask
      table[slot] = i + 1
    }
    return table
  }
}
