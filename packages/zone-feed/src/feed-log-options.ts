/** @module The feed log's limits and schedules, and their defaults. */

export interface FeedLogOptions {
  /** Entries per poll reply before it becomes a resync (default 10,000). */
  maxPollEntries?: number
  /** How long entries are kept (default 24 h). */
  keepMs?: number
  /** Most entries kept (default 1,000,000). */
  maxEntries?: number
  /** Most entries removed by one `trim` (default 50,000). */
  trimChunk?: number
  /** Served-set changes after which an index is compiled at once (default 1,000). */
  indexDeltas?: number
  /** Otherwise an index with deltas is recompiled once it is this old (default 60 s). */
  indexMinAgeMs?: number
  /** A new epoch's name (default a random UUID). */
  newEpoch?: () => string
}

/** The value of each option the caller leaves out. */
export const DEFAULTS = {
  maxPollEntries: 10_000,
  keepMs: 24 * 3600_000,
  maxEntries: 1_000_000,
  trimChunk: 50_000,
  indexDeltas: 1_000,
  indexMinAgeMs: 60_000,
}

/** Entries per tail reply (a replica's pull). */
export const MAX_TAIL_ENTRIES = 10_000
/** How often trimming runs while entries are kept. */
export const TRIM_INTERVAL_MS = 3600_000
