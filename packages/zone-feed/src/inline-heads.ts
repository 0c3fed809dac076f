/**
 * @module The head texts that ride feed entries, newest per zone, bounded in characters (the
 * oldest go first). Memory only: a feed object that restarts sends entries without heads until
 * new ones arrive, and readers then read the heads from KV as they would without them.
 */
import type { FeedEntry } from './protocol.ts'

interface Held {
  id: string
  n: number
  head: string
}

/** Characters of head text kept by default (a few thousand recent small heads). */
const INLINE_HEADS_MAX_CHARS = 4 * 1024 * 1024

export class InlineHeads {
  readonly #maxChars: number
  readonly #heads = new Map<string, Held>()
  #chars = 0

  constructor(maxChars = INLINE_HEADS_MAX_CHARS) {
    this.#maxChars = maxChars
  }

  /** Keeps `entry`'s head if it carries one; otherwise forgets the zone's (an older head is useless). */
  take(entry: { zone: string; id: string; n: number; op: string; head?: string }): void {
    this.forget(entry.zone)
    if (entry.op !== 'head' || entry.head === undefined) return
    this.#heads.set(entry.zone, { id: entry.id, n: entry.n, head: entry.head })
    this.#chars += entry.head.length
    for (const [zone, held] of this.#heads) {
      if (this.#chars <= this.#maxChars) break
      this.#heads.delete(zone)
      this.#chars -= held.head.length
    }
  }

  forget(zone: string): void {
    const held = this.#heads.get(zone)
    if (held === undefined) return
    this.#heads.delete(zone)
    this.#chars -= held.head.length
  }

  clear(): void {
    this.#heads.clear()
    this.#chars = 0
  }

  /**
   * `entry` with the head kept for exactly its zone, id and counter, while `budget.chars` (the
   * characters a reply may still carry) allows; else the entry as it is.
   */
  attach(entry: FeedEntry, budget: { chars: number }): FeedEntry {
    const held = this.#heads.get(entry.zone)
    if (
      held === undefined ||
      entry.op !== 'head' ||
      held.id !== entry.id ||
      held.n !== entry.n ||
      held.head.length > budget.chars
    )
      return entry
    budget.chars -= held.head.length
    return { ...entry, head: held.head }
  }

  get chars(): number {
    return this.#chars
  }
}

/** Head characters one poll or tail reply carries at most (the rest of its entries go without). */
export const REPLY_HEAD_CHARS = 256 * 1024
