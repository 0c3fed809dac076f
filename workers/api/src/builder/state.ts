/**
 * @module The ZoneBuilder's persistent state (DO storage): build cursor, pending full build or
 * purge, failure count and the measurements `status()` reports.
 */

/** A resumable full build: pages of names by name_rev, then a sweep of stale keys. */
export interface FullProgress {
  /** Committed change sequence when the build started; the cursor moves here when it ends. */
  startSeq: number
  startedAt: number
  phase: 'write' | 'sweep'
  /** name_rev of the last name written ('' = none yet; the meta key is written first). */
  afterRev: string
  /** Empty non-terminals written by this build that enclose the last written name. */
  ents: string[]
  /** KV list cursor of the sweep. */
  listCursor: string | null
  keysWritten: number
  keysDeleted: number
}

/** A resumable zone purge after `zone_delete`. */
export interface PurgeProgress {
  seq: number
  listCursor: string | null
}

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
  lastFullBuild: { ms: number; keysWritten: number; keysDeleted: number; startSeq: number } | null
  fullRequested: boolean
  full: FullProgress | null
  purge: PurgeProgress | null
  deleted: boolean
  failures: number
  lastError: string | null
  /** Cursor last reported to D1 `build_state`. */
  reportedSeq: number
  passes: number
  lastPass: PassStats | null
}

export function initialState(): BuilderState {
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
    failures: 0,
    lastError: null,
    reportedSeq: -1,
    passes: 0,
    lastPass: null,
  }
}

const KEY = 'state'

/** Synchronous state in the DO's SQLite-backed KV (writes coalesce with ledger writes). */
export class StateStore {
  constructor(private readonly kv: SyncKvStorage) {}

  load(): BuilderState {
    return { ...initialState(), ...(this.kv.get<BuilderState>(KEY) ?? {}) }
  }

  save(state: BuilderState): void {
    this.kv.put(KEY, state)
  }
}
