/**
 * @module What the feed log keeps and the store it keeps it in: the Durable Object's SQLite store
 * and the in-memory one (memory-store.ts) implement `FeedStore`.
 */
import type { FeedAppend, FeedEntry, IndexRef } from './protocol.ts'

/** A zone's effective entry. */
export interface ZoneRow extends FeedEntry {
  /** Sequence at which the zone became served (head) or stopped being served (delete). */
  since: number
}

/** An entry as the log keeps it: with its arrival time (ms, non-decreasing with seq). */
export interface StoredEntry extends FeedEntry {
  at: number
}

/** The index the feed announces, with what the log needs to decide when to compile the next. */
export interface IndexState extends IndexRef {
  version: number
  /** When it was compiled (ms). */
  at: number
  /** `FeedMeta.setChanges` when it was compiled: the served set's changes since are its deltas. */
  setChanges: number
}

export interface FeedMeta {
  /** Random, set when the log's history starts; a cursor of another epoch means nothing. */
  epoch: string
  /** Highest sequence assigned (entries are numbered 1, 2, … without gaps). */
  seq: number
  /** Entries up to this sequence have been trimmed: a cursor below it gets a resync. */
  floor: number
  /** Arrival time of the newest entry (keeps `at` non-decreasing). */
  lastAt: number
  index: IndexState | null
  /** Highest index version used (a compiled index whose KV write failed still uses its version). */
  lastVersion: number
  /** Count of changes to the served set (a zone starting or stopping being served). */
  setChanges: number
  /** Trimming wanted to go past the index's sequence: compile a new index first. */
  indexWanted: boolean
  /** Reconciled with D1 at least once in this epoch. */
  complete: boolean
  /** When D1's served set was last found equal to the feed's (or reconciled). */
  checkedAt: number | null
  /** Order-independent digest of the served (zone, id) set: count and two 32-bit sums. */
  served: number
  sumA: number
  sumB: number
  /** The reconciliation under way (its zones are marked seen), or null. */
  reconcile: { session: number; asOf: number } | null
  sessions: number
}

/**
 * What the log stores. Synchronous (Durable Object SQLite is); `transaction` makes a group of
 * calls atomic. Zone rows are read by name, by sequence and by `since`.
 */
export interface FeedStore {
  transaction<T>(fn: () => T): T
  readMeta(): FeedMeta | null
  writeMeta(meta: FeedMeta): void
  /** Whether the log has this (zone, id, n, op). */
  hasEntry(entry: FeedAppend): boolean
  /** Whether the log has a deletion of this zone id. */
  hasDelete(zone: string, id: string): boolean
  insertEntry(entry: StoredEntry): void
  /** Highest sequence of an entry that arrived before `at` (0 if none is kept). */
  seqBefore(at: number): number
  /** Removes every entry with seq ≤ `seq`, and every zone row of a deletion with seq ≤ `seq`. */
  trimThrough(seq: number): void
  zone(name: string): ZoneRow | null
  putZone(row: ZoneRow): void
  /** Zone rows with seq > `after`, by seq ascending, at most `limit`. */
  zonesAfter(after: number, limit: number): ZoneRow[]
  /** Zone rows with seq > `windowSeq` or since > `indexSeq`, the `limit` of highest seq, by seq ascending. */
  resyncZones(windowSeq: number, indexSeq: number, limit: number): ZoneRow[]
  /** Names of the served zones (rows whose op is head). */
  servedNames(): Iterable<string>
  /** Marks zones as seen by a reconciliation session. */
  markSeen(zones: string[], session: number): void
  /** Served zone rows not seen by `session`, name > `after`, by name, at most `limit`. */
  unseenServed(session: number, after: string, limit: number): ZoneRow[]
  /** Forgets every seen mark. */
  clearSeen(): void
}

/** The meta of a log whose history starts now, under `epoch`. */
export function freshMeta(epoch: string): FeedMeta {
  return {
    epoch,
    seq: 0,
    floor: 0,
    lastAt: 0,
    index: null,
    lastVersion: 0,
    setChanges: 0,
    indexWanted: false,
    complete: false,
    checkedAt: null,
    served: 0,
    sumA: 0,
    sumB: 0,
    reconcile: null,
    sessions: 0,
  }
}
