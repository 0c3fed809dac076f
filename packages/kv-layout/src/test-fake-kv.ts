/**
 * @module In-memory stand-in for a KV namespace that counts bulk calls and round trips.
 */
import type { KvBulkReader } from './kv-zone-view.ts'

export class FakeKv implements KvBulkReader {
  readonly data = new Map<string, string>()
  calls = 0
  rounds = 0
  keysRead: string[][] = []
  #inFlight = 0

  put(key: string, value: string): void {
    this.data.set(key, value)
  }

  async get(keys: string[], type: 'json'): Promise<Map<string, unknown | null>> {
    if (type !== 'json') throw new Error('json only')
    if (keys.length > 100) throw new Error('more than 100 keys in one bulk get')
    if (this.#inFlight === 0) this.rounds++
    this.#inFlight++
    this.calls++
    this.keysRead.push(keys)
    await Promise.resolve()
    this.#inFlight--
    const out = new Map<string, unknown | null>()
    for (const k of keys) {
      const v = this.data.get(k)
      out.set(k, v === undefined ? null : JSON.parse(v))
    }
    return out
  }

  resetCounts(): void {
    this.calls = 0
    this.rounds = 0
    this.keysRead = []
  }
}
