/**
 * @module Signatures of recently answered RRsets, so a hot RRset is signed once and its RRSIGs
 * reused until `reuse` seconds have passed (far inside their validity). Keyed by everything the
 * signature covers (signer, key tags, owner as signed, type, TTL, rdata): a changed RRset or a
 * new key is a new entry, never a stale signature. Bounded by entry count (oldest out first).
 */

interface Entry {
  rrsigs: string[]
  until: number
}

export class SignatureCache {
  readonly #entries = new Map<string, Entry>()
  hits = 0
  misses = 0

  private readonly maxEntries: number

  constructor(maxEntries = 20_000) {
    this.maxEntries = maxEntries
  }

  get(key: string, nowSeconds: number): string[] | null {
    const hit = this.#entries.get(key)
    if (!hit || nowSeconds >= hit.until) {
      if (hit) this.#entries.delete(key)
      this.misses++
      return null
    }
    this.hits++
    return hit.rrsigs
  }

  set(key: string, rrsigs: string[], until: number): void {
    this.#entries.delete(key)
    this.#entries.set(key, { rrsigs, until })
    if (this.#entries.size > this.maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string)
  }

  get size(): number {
    return this.#entries.size
  }
}
