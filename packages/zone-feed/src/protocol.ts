/**
 * @module The zone-change feed's protocol: what builders append and what isolates poll.
 *
 * The feed is a strongly consistent, ordered log of "zone Z (id I) now has head n". A head named
 * by an entry is already in KV under `headVersionKey(Z, n)`, a key written once and never read
 * before the entry existed, so a location that reads it gets it from central storage, never from
 * an edge copy. Isolates poll the feed (one call per interval, whatever the number of zones they
 * hold) instead of reading each held zone's head slots.
 */

/** How long (ms) an isolate keeps what the feed told it about zones it does not hold. */
export const FEED_WINDOW_MS = 120_000

export type FeedOp = 'head' | 'delete'

/** What a builder appends. */
export interface FeedAppend {
  /** Normalised zone name (lowercase, no trailing dot). */
  zone: string
  /** The zone's id (a zone deleted and created again under the same name has another id). */
  id: string
  /**
   * `head`: the zone's head counter now in KV (`headVersionKey(zone, n)`); 0 = the zone is served
   * but its newest head is not known to the feed (added by reconciliation): read its slots.
   * `delete`: the zone is no longer served (its keys are being purged); n is its last head.
   */
  n: number
  op: FeedOp
  /**
   * The head's encoded text (`head` entries, at most `FEED_HEAD_MAX_CHARS`): an isolate holding the
   * zone takes the head from the entry instead of reading `headVersionKey(zone, n)`. Optional: the
   * feed keeps recent heads in memory only, so a reply may leave it out, and the key is in KV
   * either way.
   */
  head?: string
}

/** The longest head text an entry carries (a larger head is read from KV). */
export const FEED_HEAD_MAX_CHARS = 4096

/** One entry of the log, numbered by the feed in arrival order. */
export interface FeedEntry extends FeedAppend {
  seq: number
}

/** A compiled zone index in KV (`indexKey(version)`, immutable): every zone served at `seq`. */
export interface IndexRef {
  key: string
  /** Feed sequence the index includes: entries after it are its deltas. */
  seq: number
  zones: number
}

export interface PollRequest {
  /** Highest `seq` the isolate has applied; null on its first poll. */
  cursor: number | null
  /** Epoch of the reply the cursor came from (null on a first poll). */
  epoch: string | null
  /**
   * A watch: when nothing is after the cursor, the primary answers once an entry arrives or after
   * this long (capped), so that an isolate learns of a change as it is appended. Replicas answer
   * at once.
   */
  waitMs?: number
}

export interface PollReply {
  /** Changes when the feed's history restarts; a cursor from another epoch means nothing. */
  epoch: string
  /** Highest sequence this reply covers: the next poll's cursor. */
  seq: number
  /**
   * The newest entry per zone after the cursor. A first poll, or one with `resync`, gets every
   * zone's newest entry after `index.seq` and within the last `FEED_WINDOW_MS`.
   */
  entries: FeedEntry[]
  /** The cursor could not be served (another epoch, or older than the feed keeps): the isolate drops what it holds. */
  resync: boolean
  /** The index to load (null while none is built); entries after its `seq` are its deltas. */
  index: IndexRef | null
  /**
   * True once the feed knows every served zone (reconciled with D1 at least once since its epoch
   * began). Until then "not in the index" does not mean "not hosted".
   */
  complete: boolean
  /**
   * How long the primary held this watch before answering (its own clock; a duration, so clocks
   * need not agree). The reply covers everything appended until then: the isolate counts it as a
   * confirmation from its send time plus this, not only from its send time.
   */
  heldMs?: number
  /**
   * Watch replies only: heads offered by builders while this watch waited (`OfferedHead`). Never
   * in a plain poll's reply nor in what replicas pull.
   */
  offered?: OfferedHead[]
}

/**
 * A head offered to the isolates watching the primary before its versioned key is written: its
 * text, which names only keys already in KV. Not an entry: it moves no cursor and enters no
 * window, and an isolate takes it only for a zone it holds (under the same id, newer than what it
 * holds), so nothing reads `headVersionKey(zone, id, n)` because of an offer. The entry for the
 * same head follows once the key is written.
 */
export interface OfferedHead {
  zone: string
  id: string
  n: number
  head: string
}

/** The primary's answer to an append. */
export interface AppendReply {
  /** An isolate watched the primary lately: the builder offers its next heads before writing them. */
  watched: boolean
}

/** What an isolate calls (a feed replica or the primary, through a Durable Object stub). */
export interface FeedPoller {
  poll(request: PollRequest): Promise<PollReply>
}

/** What a builder calls (the primary). Idempotent: appending an entry the feed already has for (zone, id, n, op) adds nothing. */
export interface FeedAppender {
  append(entries: FeedAppend[]): Promise<void>
  /**
   * Offers heads to the isolates watching the primary (`OfferedHead`); false when no isolate
   * watched at the last append (nothing is sent). Absent: the feed takes no offers.
   */
  offer?(heads: OfferedHead[]): Promise<boolean>
}
