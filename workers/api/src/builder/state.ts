/**
 * @module The ZoneBuilder's persistent state (DO storage): build cursor, pending full build or
 * purge, failure count, the feed entry still to append and the measurements `status()` reports.
 * Bucket versions and the retirement queue are in DO SQLite (`versions.ts`).
 */
import type { FeedAppend } from '@edgedns/zone-feed'

/** A resumable full build: pages of names by name_rev, then a prune of stale keys. */
export interface FullProgress {
  /** Committed change sequence when the build started; the cursor moves here when it ends. */
  startSeq: number
  startedAt: number
  /** write: D1 → node mirror (no KV); buckets: mirror → bucket keys, then the meta key (the switch); prune: dead bucket counts. */
  phase: 'write' | 'buckets' | 'prune'
  /** Bucket count this build writes (chosen when the mirror is complete; 0 before). */
  buckets: number
  /** Next bucket index to write. */
  bucketNext: number
  /** name_rev of the last name written ('' = none yet; the meta key is written first). */
  afterRev: string
  /** Empty non-terminals written by this build that enclose the last written name. */
  ents: string[]
  /**
   * Version every bucket is written at: the counter of the head that switches readers to them
   * (set when the bucket phase starts).
   */
  version?: number
  /** The layout the switch replaces (null: none), recorded once before the switch. */
  from?: { buckets: number; base: number | null } | null
  /** KV list cursor of the prune. */
  listCursor: string | null
  keysWritten: number
  keysDeleted: number
  /** Time spent in each phase so far (summed over invocations; waits between them excluded). */
  phaseMs?: { write: number; buckets: number; prune: number }
}

/** A bucket count no longer live: its keys are deleted once readers' cached metas have expired. */
interface RetireProgress {
  buckets: number
  notBefore: number
  /** Unused: a retirement recorded before its keys were queued (`queued` absent) starts from it. */
  next: number
  /** Its keys are in the retirement queue (`versions.ts`); absent: queue them first. */
  queued?: boolean
}

/** A resumable zone purge after `zone_delete`. */
interface PurgeProgress {
  seq: number
  /** The feed has the zone's `delete` entry (or no feed is bound): deletes may start. */
  announced?: boolean
  /** Key family being deleted: 0 = bucket keys, 1 = overlay keys, 2 = done. */
  stage?: number
  listCursor: string | null
}

/** What the zone's head slots say (the last head written) and what the next one must add. */
interface HeadState {
  /** Counter of the last head written (0 = none yet). */
  n: number
  /** Encoded zone metadata every head carries (null until the first full build). */
  meta: string | null
  /** Bucket changes of the recent heads, repeated in each (readers catch up from them). */
  changed: [number, number[] | 'all'][]
}

/**
 * KV layout format the builder writes: text buckets, empty buckets written, head slots, versioned
 * bucket keys named by the heads (`bv`) and a versioned head key per head.
 */
export const LAYOUT_FORMAT = 4

/** Timing of the latest pass of each kind, for status() and benchmarks. */
export interface PassStats {
  kind: 'per-record' | 'full' | 'purge'
  at: number
  ms: number
  changes: number
  names: number
  puts: number
  deletes: number
  skipped: number
  /**
   * Per-record passes: ms in D1 reads, node encoding and mirror writes, and the head's publication
   * up to its feed append; within it, the versioned head's KV write and the append.
   */
  phaseMs?: { read: number; nodes: number; publish: number; headKv?: number; feed?: number }
  /** Per-record passes: D1 round trips before the head (1 when the notification's hint held). */
  readTrips?: number
  /** Per-record passes: when the notification that started the step arrived. */
  calledAt?: number
}

export interface BuilderState {
  zoneId: string | null
  /** Remembered so a deleted zone (row gone from D1) can still be purged. */
  zoneName: string | null
  /** Last change-log sequence whose effect is in KV. */
  cursor: number
  /** Highest sequence a notification announced. */
  notified: number
  builtAt: number | null
  lastFullBuildAt: number | null
  /** Last full build duration and size. */
  lastFullBuild: {
    ms: number
    keysWritten: number
    keysDeleted: number
    startSeq: number
    phaseMs?: { write: number; buckets: number; prune: number }
  } | null
  fullRequested: boolean
  full: FullProgress | null
  purge: PurgeProgress | null
  deleted: boolean
  /**
   * The bucket count the live meta key announces (null before the first full build) and the
   * version every bucket of it has unless the heads name another (`base`; absent: unversioned
   * keys of layout format 3).
   */
  layout: { buckets: number; base?: number } | null
  /** Earlier bucket counts still to delete (after a generation switch). */
  retire: RetireProgress[]
  failures: number
  lastError: string | null
  /** Cursor last reported to D1 `build_state`. */
  reportedSeq: number
  passes: number
  lastPass: PassStats | null
  /** Layout format the zone's keys are in (an older one gets a full build). */
  format: number
  head: HeadState
  /**
   * Counter of a head whose write was started but not confirmed (0 = none): the next head takes
   * the counter after it, so no versioned head key is written twice.
   */
  headAttempt: number
  /** The newest head (or delete) not yet appended to the zone-change feed (see `feed.ts`). */
  feedPending: FeedAppend | null
  /** Failed appends of `feedPending` in a row, and when the next attempt is due. */
  feedFailures: number
  feedRetryAt: number
  /** Zone key value still to write (apex or settings change; heads carry it at once). */
  zonePending: string | null
  /** Rebuild the metadata (subzones changed, a retired bucket count) with the next head. */
  metaRefresh: boolean
  /** Ancestor zones' builders still to tell that this zone appeared or went (their subzones). */
  announce: boolean
  /**
   * Overlay keys of large passes and versions tables, deleted `retireGraceMs` after `at`: the time
   * the last head naming them was replaced (or, for a key no head named, when it was written).
   * The keys the last head names (`namedOverlay`, `versionsTable`) are never deleted.
   */
  overlayKeys: { key: string; at: number }[]
  /** The overlay key the last head names (null: its overlay is inline). */
  namedOverlay: string | null
  /** The versions table the last head named (its versions are in VersionStore's table). */
  versionsTable: { key: string; base: number } | null
  /** Outgoing transfers were enabled when the zone row was last read: passes send NOTIFY. */
  outgoing: boolean
}

function initialState(): BuilderState {
  return {
    zoneId: null,
    zoneName: null,
    cursor: 0,
    notified: 0,
    builtAt: null,
    lastFullBuildAt: null,
    lastFullBuild: null,
    fullRequested: false,
    full: null,
    purge: null,
    deleted: false,
    layout: null,
    retire: [],
    failures: 0,
    lastError: null,
    reportedSeq: -1,
    passes: 0,
    lastPass: null,
    format: 0,
    head: { n: 0, meta: null, changed: [] },
    headAttempt: 0,
    feedPending: null,
    feedFailures: 0,
    feedRetryAt: 0,
    zonePending: null,
    metaRefresh: false,
    announce: false,
    overlayKeys: [],
    namedOverlay: null,
    versionsTable: null,
    outgoing: false,
  }
}

const KEY = 'state'

/** Requests made from outside a step (a subzone appeared or went, a full build asked for). */
export type AskedFlag = 'metaRefresh' | 'fullRequested'

/**
 * Synchronous state in the DO's SQLite-backed KV (writes coalesce with ledger writes). A step
 * works on its own copy and saves it as it goes, so a flag asked for while it runs (`ask`) is
 * kept in every save until a step has loaded it (`loadForStep`), or that step's saves would
 * write it away.
 */
export class StateStore {
  readonly #asked = new Set<AskedFlag>()

  constructor(private readonly kv: SyncKvStorage) {}

  load(): BuilderState {
    return { ...initialState(), ...(this.kv.get<BuilderState>(KEY) ?? {}) }
  }

  /** The state for a step, which takes over every flag asked for so far. */
  loadForStep(): BuilderState {
    const state = this.load()
    this.#asked.clear()
    return state
  }

  /** Sets `flag` for the next step, saved at once and in every later save until a step loads it. */
  ask(flag: AskedFlag): void {
    this.#asked.add(flag)
    this.save(this.load())
  }

  save(state: BuilderState): void {
    if (this.#asked.size === 0) return this.kv.put(KEY, state)
    const merged = { ...state }
    for (const flag of this.#asked) merged[flag] = true
    this.kv.put(KEY, merged)
  }
}
