/**
 * @module The isolate's cache of verified tokens: a token seen recently is trusted without waiting
 * on the home database, which runs one query at a time and may be busy with a long commit.
 *
 * An entry is the token's row as a read returned it, stamped with the time that read started. Up to
 * `refreshAfterMs` old it is used as is; older, it is still used while one read in the background
 * replaces it; from `maxAgeMs` on it is no longer used and the request waits for a read. So a token
 * revoked, or whose account's limits changed, passes for at most `maxAgeMs` after the change in an
 * isolate that did not make it. The isolate that makes such a change calls `forgetAll`, and refuses
 * the token at once. Only tokens that exist are kept: an unknown token always reads the database.
 * Expiry and `not_before` are checked by the caller against the clock on every request.
 */

/** A cached token is read again in the background once it is this old. */
export const TOKEN_REFRESH_AFTER_MS = 5_000
/**
 * A cached token is not used once it is this old: the revocation delay in other isolates. It
 * exceeds the refresh age by more than D1's longest query, so a warm isolate keeps answering
 * through the longest commit another request can run on the home database.
 */
export const TOKEN_MAX_AGE_MS = 60_000
/** Tokens one isolate keeps, least recently used dropped first. */
export const TOKEN_CACHE_ENTRIES = 10_000

export interface VerifiedTokensOptions {
  refreshAfterMs?: number
  maxAgeMs?: number
  maxEntries?: number
  now?: () => number
}

interface Entry<V> {
  value: V
  /** When the read that returned `value` started. */
  readAt: number
  refreshing: boolean
}

/** Hands a background read to the runtime (`ctx.waitUntil`) so it outlives the response. */
export type Background = (work: Promise<unknown>) => void

export class VerifiedTokens<V> {
  readonly refreshAfterMs: number
  readonly maxAgeMs: number
  private readonly maxEntries: number
  private readonly now: () => number
  private readonly entries = new Map<string, Entry<V>>()
  /** Bumped by `forgetAll`: a read that started before it must not store what it read. */
  private generation = 0

  constructor(options: VerifiedTokensOptions = {}) {
    this.refreshAfterMs = options.refreshAfterMs ?? TOKEN_REFRESH_AFTER_MS
    this.maxAgeMs = options.maxAgeMs ?? TOKEN_MAX_AGE_MS
    this.maxEntries = options.maxEntries ?? TOKEN_CACHE_ENTRIES
    this.now = options.now ?? (() => Date.now())
  }

  /**
   * The row for `key` (the token's hash): from the cache while it is young enough, otherwise from
   * `read`, which returns null for a token that does not exist or is no longer active.
   */
  async get(key: string, read: () => Promise<V | null>, background: Background): Promise<V | null> {
    const entry = this.entries.get(key)
    const now = this.now()
    if (entry && now - entry.readAt < this.maxAgeMs) {
      this.entries.delete(key)
      this.entries.set(key, entry)
      if (now - entry.readAt >= this.refreshAfterMs && !entry.refreshing) {
        entry.refreshing = true
        background(
          this.load(key, read).then(
            () => undefined,
            () => {
              entry.refreshing = false
            }
          )
        )
      }
      return entry.value
    }
    // Each request reads for itself: a read another request started never settles in this one if
    // that request ends first (Workers cancel its I/O), so it is not shared.
    return this.load(key, read)
  }

  /** Drops every entry, and what reads under way would store: after a token or account change. */
  forgetAll(): void {
    this.generation++
    this.entries.clear()
  }

  get size(): number {
    return this.entries.size
  }

  private async load(key: string, read: () => Promise<V | null>): Promise<V | null> {
    const generation = this.generation
    const readAt = this.now()
    const value = await read()
    if (generation !== this.generation) return value
    this.entries.delete(key)
    if (value === null) return null
    this.entries.set(key, { value, readAt, refreshing: false })
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    return value
  }
}
