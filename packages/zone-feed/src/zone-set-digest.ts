/**
 * @module The order-independent digest of a served (zone, id) set: a count and two 32-bit sums of
 * per-pair hashes, kept incrementally in the log's meta and rebuilt from D1 by the cron.
 */
import type { FeedMeta } from './feed-store.ts'

function pairHash(zone: string, id: string): [number, number] {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  const s = `${zone}\n${id}`
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x01000193)
    b ^= b >>> 15
  }
  return [a >>> 0, b >>> 0]
}

export function digestString(count: number, a: number, b: number): string {
  return `${count}:${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`
}

export function digestAdd(m: FeedMeta, zone: string, id: string): void {
  const [a, b] = pairHash(zone, id)
  m.served += 1
  m.sumA = (m.sumA + a) >>> 0
  m.sumB = (m.sumB + b) >>> 0
}

export function digestRemove(m: FeedMeta, zone: string, id: string): void {
  const [a, b] = pairHash(zone, id)
  m.served -= 1
  m.sumA = (m.sumA - a) >>> 0
  m.sumB = (m.sumB - b) >>> 0
}

/** The digest of a served set, built incrementally (the cron's side of `FeedLog.digest`). */
export class ZoneSetDigest {
  #count = 0
  #a = 0
  #b = 0

  add(zone: string, id: string): void {
    const [a, b] = pairHash(zone, id)
    this.#count += 1
    this.#a = (this.#a + a) >>> 0
    this.#b = (this.#b + b) >>> 0
  }

  get size(): number {
    return this.#count
  }

  toString(): string {
    return digestString(this.#count, this.#a, this.#b)
  }
}
