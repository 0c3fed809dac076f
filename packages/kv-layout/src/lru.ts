/**
 * @module A small LRU map whose entries also expire after a fixed time.
 */

interface Entry<V> {
  value: V
  expires: number
}

export class TtlLru<V> {
  readonly #map = new Map<string, Entry<V>>()
  readonly maxEntries: number
  readonly ttlMs: number
  readonly now: () => number

  constructor(maxEntries: number, ttlMs: number, now: () => number = Date.now) {
    this.maxEntries = maxEntries
    this.ttlMs = ttlMs
    this.now = now
  }

  /** The entry, or undefined when absent or expired; a hit becomes most recently used. */
  get(key: string): { value: V } | undefined {
    const entry = this.#map.get(key)
    if (!entry) return undefined
    this.#map.delete(key)
    if (entry.expires <= this.now()) return undefined
    this.#map.set(key, entry)
    return { value: entry.value }
  }

  set(key: string, value: V): void {
    if (this.maxEntries <= 0 || this.ttlMs <= 0) return
    this.#map.delete(key)
    this.#map.set(key, { value, expires: this.now() + this.ttlMs })
    while (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next().value as string
      this.#map.delete(oldest)
    }
  }

  get size(): number {
    return this.#map.size
  }

  clear(): void {
    this.#map.clear()
  }
}
