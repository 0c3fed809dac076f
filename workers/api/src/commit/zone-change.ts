/**
 * @module The one owner of committing a zone change. Every write to a zone (record batches,
 * imports, zone settings, zone creation and deletion, full-build requests) commits here:
 *   - the version guard: one UPDATE that bumps the zone's version, serial and change sequence and
 *     fails the whole D1 batch when another writer committed first;
 *   - the change-log rows (the builder's outbox and the audit trail) in the same D1 batch;
 *   - the translation of D1's constraint failures into a typed `CommitConflict`, so callers decide
 *     by `reason`, never by reading error text;
 *   - the `x-edgedns-change-seq` response header and the notification of the zone's builder.
 * Every commit moves `zones.change_seq`; triggers on it (migration 0013) list the zone in
 * `zones_behind` in the same transaction, the work list of the propagation sweep.
 */
import { serialAfter } from '@edgedns/zone-transfer'
import type { Context } from 'hono'
import type { AppEnv } from '../http/app-env.ts'
import { RECORD_COLUMNS } from '../records/model.ts'

/** Response header carrying the change-log sequence a write committed up to. */
export const CHANGE_SEQ_HEADER = 'x-edgedns-change-seq'

/**
 * Response header carrying the API's wall clock (ms since the epoch) when D1 acknowledged the
 * commit. The Workers clock advances only at I/O, so read right after the committing batch
 * resolves it is that instant; propagation is measured from it.
 */
export const COMMITTED_AT_HEADER = 'x-edgedns-committed-at'

/** The zone columns a write was planned against; the guard fails when they moved. */
export interface ZoneGuard {
  version: number
  changeSeq: number
  serial: number
}

export interface GuardContext {
  zoneId: string
  guard: ZoneGuard
  now: string
}

/** Change-log operations that are about the zone as a whole rather than one record. */
/**
 * `full`: a rebuild request (activation, repair); `replace`: a transfer replaced the zone's records
 * whole (an AXFR), built in full too, and the one entry that stands for records it does not name.
 */
export type ZoneLogOp = 'zone' | 'zone_delete' | 'full' | 'replace'

/** Why D1 refused a commit. */
export type ConflictReason =
  /** Another writer committed to the zone after this write read it: re-read and retry. */
  | 'zone-changed'
  /** A record with the same name, type, content and priority exists in the zone. */
  | 'identical-record'
  /** A live zone already has this name. */
  | 'zone-name-taken'
  /** The zone row is gone. */
  | 'zone-missing'
  /** The account is fenced on this D1 shard: it is moving (or has moved) to another shard. */
  | 'account-fenced'

export class CommitConflict extends Error {
  constructor(
    readonly reason: ConflictReason,
    options: { cause: unknown }
  ) {
    super(`zone change not committed: ${reason}`, options)
    this.name = 'CommitConflict'
  }
}

/** The SQLite constraint messages D1 reports, each with what it means for a commit. */
const CONSTRAINTS: readonly (readonly [string, ConflictReason])[] = [
  // The guard's CASE yields NULL when the version moved: the NOT NULL constraint fails.
  ['NOT NULL constraint failed: zones.version', 'zone-changed'],
  // Two writers that read the same change sequence write the same (zone, seq) log key.
  ['UNIQUE constraint failed: change_log', 'zone-changed'],
  ['UNIQUE constraint failed: dns_records', 'identical-record'],
  ['UNIQUE constraint failed: zones.name', 'zone-name-taken'],
  ['UNIQUE constraint failed: zones.account_id, zones.name', 'zone-name-taken'],
  ['FOREIGN KEY constraint failed', 'zone-missing'],
  // accountFenceStatement's CASE yields NULL when the account is fenced on the shard.
  ['NOT NULL constraint failed: accounts.created_on', 'account-fenced'],
]

/** The conflict a D1 failure stands for, or null when it is not one (the error is then a fault). */
export function conflictOf(error: unknown): CommitConflict | null {
  const message = String((error as Error | undefined)?.message ?? error)
  const hit = CONSTRAINTS.find(([text]) => message.includes(text))
  return hit ? new CommitConflict(hit[1], { cause: error }) : null
}

/** Runs the statements as one D1 batch (one transaction); D1 constraint failures become `CommitConflict`. */
export async function commitZoneChange(
  db: D1Database,
  statements: D1PreparedStatement[]
): Promise<D1Result[]> {
  try {
    return await db.batch(statements)
  } catch (e) {
    throw conflictOf(e) ?? e
  }
}

/**
 * The serial after `serial`: the current time in epoch seconds when that comes after it, else one
 * more; both in serial arithmetic (RFC 1982, modulo 2^32), so a serial near 2^32 - 1 (a primary's,
 * kept when a secondary zone became a primary one) wraps instead of leaving the 32 bits a SOA has.
 */
export function nextSerial(serial: number, nowMs: number): number {
  const now = Math.floor(nowMs / 1000) % 2 ** 32
  return serialAfter(now, serial) ? now : (serial + 1) % 2 ** 32
}

/**
 * Bumps version, serial and change sequence; fails the whole batch if another writer committed
 * first, or when an account move has fenced the zone on this shard (status 'moving') or is still
 * copying it here ('copying'): a write routed by a stale shard cache can never land on the
 * database the account is leaving, nor on its copy before the move's final pass.
 * A secondary zone's serial is its primary's and stays as it is: a transfer sets it (the
 * primary's), and a zone-level change (settings, DNSSEC, activation) is seen by the builder from
 * the change sequence and the change log, which move as for any zone.
 */
export function guardStatement(
  db: D1Database,
  ctx: GuardContext,
  changeCount: number
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE zones SET version = CASE WHEN version = ?1 AND status NOT IN ('moving', 'copying') THEN version + 1 END,
         change_seq = change_seq + ?2, serial = CASE WHEN type = 'secondary' THEN serial ELSE ?3 END,
         modified_on = ?4 WHERE id = ?5`
    )
    .bind(
      ctx.guard.version,
      changeCount,
      nextSerial(ctx.guard.serial, Date.parse(ctx.now)),
      ctx.now,
      ctx.zoneId
    )
}

/**
 * Fails the batch (reason 'account-fenced') when an account move has fenced the account on this
 * shard; otherwise rewrites nothing. Zone creation commits it, as it has no zone row to guard.
 */
export function accountFenceStatement(db: D1Database, accountId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE accounts SET created_on = CASE WHEN EXISTS (SELECT 1 FROM shard_fences WHERE account_id = ?1)
         THEN NULL ELSE created_on END WHERE id = ?1`
    )
    .bind(accountId)
}

/** The change-log row of a zone-level change (settings, creation, deletion). */
export function zoneLogStatement(
  db: D1Database,
  zoneId: string,
  seq: number,
  op: ZoneLogOp,
  now: string
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO change_log (zone_id, seq, op, created_on) VALUES (?1, ?2, ?3, ?4)')
    .bind(zoneId, seq, op, now)
}

/**
 * A change-log row's `before`: the record row aliased `r` as it is, its columns in RECORD_COLUMNS
 * order (a JSON array; `change-steps.ts` and the audit read it back by that order).
 */
export const BEFORE_IMAGE = `json_array(${RECORD_COLUMNS.map((col) => `r.${col}`).join(', ')})`

/**
 * Record change-log rows keep only the record as it was BEFORE the change (null for creates): the
 * state after a change is the next change's `before`, or the live row, so the audit trail is
 * complete without writing every new record twice. The before-image and old name are read from
 * the row itself (this statement runs before the batch deletes or rewrites any row), so they never
 * travel in the request: a change costs the database a few dozen bytes of parameters, not a whole record.
 * Each change is one id at most once (the plan folds a batch into one change per record), so the
 * row it joins is exactly the plan's `before`.
 * Binds: ?1 zone id, ?2 token id, ?3 time, ?4 JSON chunk of `recordLogRow`s.
 */
export const INSERT_RECORD_CHANGES = `INSERT INTO change_log (zone_id, seq, op, record_id, old_name, new_name, type, token_id, before, created_on)
  SELECT ?1, c.value ->> 0, c.value ->> 1, c.value ->> 2, r.name, c.value ->> 3, c.value ->> 4, ?2,
    CASE WHEN r.id IS NULL THEN NULL ELSE ${BEFORE_IMAGE} END, ?3
  FROM jsonb_each(?4) AS c
  LEFT JOIN dns_records AS r ON c.value ->> 1 <> 'create' AND r.id = c.value ->> 2 AND +r.zone_id = ?1`

/** One element of INSERT_RECORD_CHANGES' JSON chunk: [seq, op, record id, new name, type]. */
export type RecordLogRow = [number, 'create' | 'update' | 'delete', string, string | null, string]

/**
 * A full-build request: an `op = 'full'` row at the next sequence. It bumps the version without a
 * check, so record batches planned before it re-plan; it needs no read first. The first result's
 * rows hold the committed `change_seq` (none when the zone does not exist).
 */
export function fullBuildRequestStatements(
  db: D1Database,
  zoneId: string,
  now: string
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        'UPDATE zones SET version = version + 1, change_seq = change_seq + 1 WHERE id = ?1 RETURNING change_seq'
      )
      .bind(zoneId),
    db
      .prepare(
        `INSERT INTO change_log (zone_id, seq, op, created_on) SELECT id, change_seq, 'full', ?2 FROM zones WHERE id = ?1`
      )
      .bind(zoneId, now),
  ]
}

/** The rows of one import's staged range `?2`..`?3` (`import_staging.ord`). */
export const STAGED_RANGE = 's.import_id = ?1 AND s.ord BETWEEN ?2 AND ?3'

/**
 * Change-log rows of records an import staged in `import_staging` (creates only: no before-image;
 * new name and type from the staged row), one per staged row of the range, at consecutive sequences
 * after `changeSeq`.
 */
export function stagedCreatesLogStatement(
  db: D1Database,
  r: {
    importId: string
    lo: number
    hi: number
    zoneId: string
    changeSeq: number
    tokenId: string | null
    now: string
  }
): D1PreparedStatement {
  const col = (name: (typeof RECORD_COLUMNS)[number]): number => RECORD_COLUMNS.indexOf(name)
  return db
    .prepare(
      `INSERT INTO change_log (zone_id, seq, op, record_id, old_name, new_name, type, token_id, before, created_on)
       SELECT ?4, ?5 + s.ord + 1, 'create', s.row ->> ${col('id')}, NULL, s.row ->> ${col('name')}, s.row ->> ${col('type')}, ?6, NULL, ?7
       FROM import_staging AS s WHERE ${STAGED_RANGE} ORDER BY s.ord`
    )
    .bind(r.importId, r.lo, r.hi, r.zoneId, r.changeSeq, r.tokenId, r.now)
}

/** The ZoneBuilder namespace binding, typed by the worker's `Env` (its class, not this layer's). */
export type BuilderBinding = Pick<Env, 'ZONE_BUILDER'>

/** The zone's ZoneBuilder Durable Object (one per zone id). */
export function builderStub(env: BuilderBinding, zoneId: string) {
  return env.ZONE_BUILDER.get(env.ZONE_BUILDER.idFromName(zoneId))
}

/**
 * A committed change as its notification describes it: what the builder's hint chain
 * (`builder/hints.ts`) uses to read the log and the touched names' rows in one round trip.
 */
export interface ChangeHint {
  /** The change-log sequence the change follows (its first row is `after + 1`). */
  after: number
  /** The sequence it committed up to. */
  upTo: number
  /** Record names it created, changed or removed (old and new names). */
  names: string[]
}

/** Record names one hint may carry; larger changes are read from the log. */
export const MAX_HINT_NAMES = 200

/**
 * Changes above which the notification waits for the response: a small pass costs less than the
 * wait (one-record changes keep their latency), a large one would hold the response up locally.
 */
const AFTER_RESPONSE_ABOVE = 100

/**
 * What a small change touched, for its notification (null when there is nothing to say or the
 * change is large): the builder then reads the log and these names' rows in one round trip.
 */
function changeHint(
  seq: number,
  changes: number,
  names: readonly (string | null | undefined)[] | undefined
): ChangeHint | null {
  if (!names || changes <= 0 || changes > AFTER_RESPONSE_ABOVE) return null
  const unique = [...new Set(names.filter((n): n is string => typeof n === 'string'))]
  return unique.length <= MAX_HINT_NAMES ? { after: seq - changes, upTo: seq, names: unique } : null
}

/**
 * Tells the zone's builder its change log moved; large changes wait until the response is out.
 * `names` (record names the change touched, old and new) ride along with small changes.
 */
function notifyBuilder(
  c: Context<AppEnv>,
  zoneId: string,
  seq: number,
  changes = 1,
  names?: readonly (string | null | undefined)[]
): void {
  const stub = builderStub(c.env, zoneId)
  const hint = changeHint(seq, changes, names)
  const send = () =>
    (hint ? stub.notify(zoneId, seq, hint) : stub.notify(zoneId, seq)).catch((e: unknown) =>
      console.warn('builder notification lost; the sweep will heal it', zoneId, seq, e)
    )
  const queue = c.get('afterResponse')
  if (queue && changes > AFTER_RESPONSE_ABOVE) queue.push(send)
  // A small change's builder is called at once: its pass is a few milliseconds, and a timer turn
  // first (so the response left before the pass ran) made changes visible later without making
  // responses faster (docs/decisions/builder-visible-fast.md).
  else c.executionCtx.waitUntil(send())
}

/**
 * What every route does once a change is committed: answer with the sequence it committed up to
 * and, when it changed anything, the commit instant, and notify the builder. `changes` = 0
 * (nothing changed) only sets the sequence header. Call it with no I/O between the commit and
 * the call, or pass `committedAt` read right after the commit.
 */
export function announceCommit(
  c: Context<AppEnv>,
  zoneId: string,
  seq: number,
  changes: number,
  names?: readonly (string | null | undefined)[],
  committedAt = Date.now()
): void {
  c.header(CHANGE_SEQ_HEADER, String(seq))
  if (changes > 0) c.header(COMMITTED_AT_HEADER, String(committedAt))
  if (changes > 0) notifyBuilder(c, zoneId, seq, changes, names)
}
