/**
 * @module What the API says a small change touched, carried by its notification: the sequence it
 * extends and the record names it changed. With it a pass reads the change log and the rows of
 * the names it will touch in one D1 round trip instead of two. A hint is only a guess about the
 * log: the pass still plans from the log it read, and uses the rows read with the hint only when
 * they cover every name that plan touches (otherwise it reads them, as without a hint). Hints live
 * in the Durable Object's memory only: losing them costs a round trip, never a change.
 */
import { ancestorsBetween, isInZone } from '@edgedns/kv-layout'
import { MAX_HINT_NAMES, type ChangeHint } from '../commit/zone-change.ts'

/** Hints kept at most (a builder that falls this far behind reads the log as usual). */
const MAX_HINTS = 64

/** Hints of recent notifications, chained from the builder's cursor when a pass starts. */
export class HintChain {
  #hints: ChangeHint[] = []

  add(hint: ChangeHint): void {
    if (!isValidHint(hint)) return
    this.#hints = [...this.#hints.filter((h) => h.after !== hint.after), hint]
      .sort((a, b) => a.after - b.after)
      .slice(-MAX_HINTS)
  }

  /**
   * The names a pass from `cursor` is expected to touch (each changed name with its ancestors
   * below the apex, the apex itself when a change is at the apex), or null when no hint starts
   * exactly at the cursor. Hints at or below the cursor are dropped.
   */
  expectedNames(cursor: number, apex: string): string[] | null {
    this.#hints = this.#hints.filter((h) => h.upTo > cursor)
    const names = new Set<string>()
    let at = cursor
    for (const h of this.#hints) {
      if (h.after !== at) continue
      for (const name of h.names) {
        if (!isInZone(name, apex)) continue
        names.add(name)
        if (name !== apex) for (const a of ancestorsBetween(name, apex)) names.add(a)
      }
      at = h.upTo
    }
    return at === cursor ? null : [...names]
  }

  get size(): number {
    return this.#hints.length
  }
}

function isValidHint(h: ChangeHint): boolean {
  return (
    Number.isInteger(h.after) &&
    Number.isInteger(h.upTo) &&
    h.after >= 0 &&
    h.upTo > h.after &&
    Array.isArray(h.names) &&
    h.names.length <= MAX_HINT_NAMES &&
    h.names.every((n) => typeof n === 'string')
  )
}
