/** @module What the feed log answers besides polls: tails, digests, compiled indexes. */
import type { FeedEntry, IndexRef } from './protocol.ts'

export interface TailRequest {
  /** The replica's sequence; null when it has nothing yet. */
  after: number | null
  epoch: string | null
  /** At most this many entries (capped by the log's own limit). */
  limit?: number
}

export interface TailReply {
  epoch: string
  /** Sequence the reply brings the replica to. */
  seq: number
  /** Effective entries after `after`, by seq. */
  entries: FeedEntry[]
  /** More entries follow `seq`: ask again. */
  more: boolean
  /** The replica's `after` cannot be continued (first tail, another epoch, trimmed): start empty at `seq`. */
  reset: boolean
  index: IndexRef | null
  complete: boolean
}

/** A served zone as D1 knows it. */
export interface ServedZone {
  zone: string
  id: string
}

export interface DigestReply {
  /** Digest of the served set (`ZoneSetDigest` over the same pairs gives the same string). */
  digest: string
  zones: number
  complete: boolean
  checkedAt: number | null
  seq: number
}

/** An index compiled by `compileIndex`, to be written to KV and then announced with `publishIndex`. */
export interface CompiledIndex {
  version: number
  seq: number
  zones: number
  at: number
  setChanges: number
  bytes: Uint8Array
}
