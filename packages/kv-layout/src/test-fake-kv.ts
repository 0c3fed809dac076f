/**
 * @module In-memory stand-in for a KV namespace that counts bulk calls and round trips.
 */
import type { KvBulkReader } from './kv-reads.ts'

export class FakeKv implements KvBulkReader {
  readonly data = new Map<string, string>()
  /** Values written as bytes (the zone index): never read through `get`, which reads text. */
  readonly bytes = new Map<string, Uint8Array>()
  calls = 0
  rounds = 0
  keysRead: string[][] = []
  #inFlight = 0

  put(key: string, value: string | Uint8Array): void {
    if (typeof value === 'string') this.data.set(key, value)
    else this.bytes.set(key, value)
  }

  putAll(entries: Map<string, string>): void {
    for (const [k, v] of entries) this.data.set(k, v)
  }

  delete(key: string): void {
    this.data.delete(key)
  }

  keys(): IterableIterator<string> {
    return this.data.keys()
  }

  async get(
    keys: string[],
    options: { type: 'text'; cacheTtl?: number } | 'text'
  ): Promise<Map<string, string | null>> {
    const type = typeof options === 'string' ? options : options.type
    if (type !== 'text') throw new Error('text only')
    if (keys.length > 100) throw new Error('more than 100 keys in one bulk get')
    if (this.#inFlight === 0) this.rounds++
    this.#inFlight++
    this.calls++
    this.keysRead.push(keys)
    await Promise.resolve()
    this.#inFlight--
    const out = new Map<string, string | null>()
    for (const k of keys) {
      const v = this.data.get(k)
      out.set(k, v ?? null)
    }
    return out
  }

  resetCounts(): void {
    this.calls = 0
    this.rounds = 0
    this.keysRead = []
  }
}
