/**
 * @module An account move's persisted job and what its phases work through: the paged tables, the
 * tables retired, the page size (see move.ts for the phases).
 */
import { getTableName } from 'drizzle-orm'
import { type BuilderBinding } from '../commit/zone-change.ts'
import {
  transferAcls,
  transferCatalogs,
  transferPeers,
  transferTsigs,
  zoneTransfersIncoming,
  zoneTransfersOutgoing,
} from '../db/schema-transfers.ts'
import { type ShardEnv } from './databases.ts'

/** Rows deleted per statement when a move clears rows (the source's when retired, a zone's records on the destination when copied again). */
export const CLEANUP_CHUNK = 5000

/** Rows read per page from the source; the page is written in JSON chunks under D1's 2 MB string limit. */
export const MOVE_PAGE_ROWS = 500

/**
 * The tables copied zone by zone, in pages ordered by an index of the table (a keyset: each page
 * seeks past the last row copied, so a page costs the same at any depth of a large zone).
 */
export const COPY_TABLES = [
  { table: 'dns_records', key: ['name_rev', 'type', 'content', 'ifnull(priority, -1)'] },
  { table: 'change_log', key: ['seq'] },
  // Which change produced which serial: IXFR answers from the change log after a move too.
  { table: 'zone_serials', key: ['seq'] },
] as const
/** The records' keyset (the first of COPY_TABLES): a zone copied again is paged by it too. */
export const RECORDS_KEYSET = COPY_TABLES[0]
/** Per-zone tables of one row per zone at most, copied with each zone group's zone rows. */
export const ZONE_ROW_TABLES = [zoneTransfersOutgoing, zoneTransfersIncoming].map(getTableName)
/**
 * The account's own tables (zone transfers: TSIG keys, peers, ACLs, the catalog), copied under the fence after
 * the zone groups, in keyset pages by id, and cleared on the source when the move retires it.
 */
export const ACCOUNT_TABLES = [transferTsigs, transferPeers, transferAcls, transferCatalogs].map(
  getTableName
)
/** The source tables cleared for each zone group when it is retired (after its zones are marked deleted). */
export const RETIRE_TABLES = [
  'change_log',
  'zone_serials',
  'build_state',
  'zones_behind',
  ...ZONE_ROW_TABLES,
] as const

export class MoveRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MoveRefused'
  }
}

type MovePhase = 'copy' | 'catchup' | 'final' | 'retire' | 'done'

/** A move's persisted state: enough to pick up exactly where the last saved unit of work ended. */
export interface MoveJob {
  accountId: string
  from: number
  to: number
  phase: MovePhase
  /** Source change-log rowid up to which the destination has caught up. */
  logMark: number
  /** Last zone id of the groups already done in the current phase ('' = none yet). */
  zoneAfter: string
  /**
   * Where in the current zone group the phase is: copying, 0 = its zone and build-state rows, then
   * the COPY_TABLES paged zone by zone; retiring, 0 = its zones, then RETIRE_TABLES.
   */
  table: number
  /** Copying a paged table: the zone of the group being paged ('' = the group's first). */
  zone: string
  /**
   * Copying a paged table: the key of the last row copied of that zone (null = none yet); copying
   * an account table: the last id copied.
   */
  key: unknown[] | null
  /**
   * After the zone groups of the final pass (copying) or of the retirement (clearing): the index
   * in ACCOUNT_TABLES of the account table under way (absent = the first).
   */
  accountTable?: number
  /**
   * Zones whose records are copied again before any other unit of work: the log has a `replace`
   * entry of theirs (a transfer replaced the zone's records whole), a change that names none of
   * the records it replaced. The first is under way: `cleared` once the
   * destination holds none of its records, then `key` the last copied (a keyset, as in the copy).
   */
  recopy?: { zones: string[]; cleared: boolean; key: unknown[] | null }
  /** Zones whose records were copied again (see `recopy`). */
  recopies?: number
  /**
   * Times the fence waited for queued recopies to run unfenced: at most MAX_FENCE_WAITS, so
   * transfers replacing zones faster than they are copied cannot keep the move from fencing (the
   * recopy then runs in the fenced final pass).
   */
  fenceWaits?: number
  zones: number
  records: number
  changes: number
  /** Log entries applied by the catch-up (written while the account kept accepting writes). */
  caughtUp: number
  steps: number
  startedOn: string
  fencedOn: string | null
  finishedOn: string | null
  epoch: number | null
  lastError: string | null
}

/** What a move step is given: the shards and the zone builders. */
export type MoveEnv = ShardEnv & BuilderBinding
