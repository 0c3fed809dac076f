/**
 * @module The heads offered to the primary's watchers (`OfferedHead`), kept briefly so that each
 * watch answers with the offers made while it waited. Memory only: an offer lost in a restart
 * costs nothing, as its entry follows.
 */
import { checkOffer, FeedInputError } from './feed-append-check.ts'
import type { OfferedHead } from './protocol.ts'

/** Most heads one offer call may carry. */
export const MAX_OFFER_HEADS = 16

/** How long an offer is kept for watches (ms); its entry is appended long before. */
const KEEP_MS = 5000

/** Most offers kept at once (the oldest go first). */
const MAX_KEPT = 256

export class WatchOffers {
  readonly #kept: { at: number; head: OfferedHead }[] = []

  /** Checks and keeps `heads`, offered at `now`. */
  add(heads: unknown, now: number): void {
    if (!Array.isArray(heads) || heads.length === 0 || heads.length > MAX_OFFER_HEADS)
      throw new FeedInputError(`offer: 1 to ${MAX_OFFER_HEADS} heads a call`)
    const checked = heads.map(checkOffer)
    this.#prune(now)
    for (const head of checked) this.#kept.push({ at: now, head })
    if (this.#kept.length > MAX_KEPT) this.#kept.splice(0, this.#kept.length - MAX_KEPT)
  }

  /** The offers made at or after `since` (a watch's arrival), oldest first. */
  since(since: number, now: number): OfferedHead[] {
    this.#prune(now)
    return this.#kept.filter((o) => o.at >= since).map((o) => o.head)
  }

  #prune(now: number): void {
    let drop = 0
    while (drop < this.#kept.length && this.#kept[drop]!.at < now - KEEP_MS) drop++
    if (drop > 0) this.#kept.splice(0, drop)
  }
}
