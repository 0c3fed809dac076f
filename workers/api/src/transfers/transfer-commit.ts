/**
 * @module A received transfer becomes ONE atomic change of the zone, like a large import:
 *
 * 1. Stage: while the transfer streams in, its records (and an IXFR's deletions) go to
 *    `import_staging` in bounded statements under this transfer's own id, each staged row holding
 *    up to a hundred records (staged-list.ts), of each only the columns in which a transfer's records differ
 *    (the table's row and index writes, and the discard's deletes, are per staged row). Nothing reads that
 *    table, so the zone is served exactly as before, and a transfer that breaks off leaves only
 *    staged rows, which are discarded (the cron removes any a dead worker left).
 * 2. Commit: one D1 batch: the zone's version guard, the records replaced (AXFR: the old ones
 *    deleted in statements of at most `rowsPerStatement` rows each, then the staged ones inserted
 *    in ranges of the same size) or the deletions and additions applied (IXFR: in ranges of the
 *    same size, each found through the identity index, step after step (a later step applies to
 *    what the earlier made; an IXFR of more than MAX_IXFR_STEPS runs is pulled by AXFR instead),
 *    and the whole batch refused unless every deletion removed a record and every addition added
 *    one), the zone's SOA set from the primary's (its serial is the zone's serial), its change-log
 *    rows and the zone's record of the copy it now holds (held-copy.ts).
 * 3. What is logged follows what changed. An IXFR of up to PER_RECORD_LOG records logs each record
 *    it deletes and adds, as a records batch does, and then the zone's SOA (`soa`, with the SOA it
 *    replaced), so the builder rebuilds only the names it touched, and an IXFR out of this zone is
 *    answered from the same rows. An AXFR of at most AXFR_DIFF_LIMIT records into a zone holding
 *    a copy is applied as its difference from that copy (axfr-difference.ts): one IXFR step,
 *    logged so. Any other AXFR, or a larger IXFR or difference, logs one `replace`
 *    entry (the zone's records replaced whole: the builder rewrites the zone's keys, as for a full
 *    build, and an account move copies the zone's records again).
 *
 * A transfer is the one writer of a secondary zone's records: it writes them here directly,
 * never through the records API, which refuses writes to secondary zones.
 */
import type { MessageRR } from '@edgedns/dns-wire'
import {
  commitZoneChange,
  guardStatement,
  zoneLogStatement,
  type ZoneGuard,
} from '../commit/zone-change.ts'
import { recordIdGenerator } from '../http/ids.ts'
import { reverseName } from '../records/model.ts'
import { stageDifference } from './axfr-difference.ts'
import { recordCopy } from './held-copy.ts'
import { Fingerprints } from './record-fingerprints.ts'
import { badShapeOf, zoneShapeGuards } from './zone-shape.ts'
import { zoneSoaOf } from './zone-soa.ts'
import { mapOrSkip, type MapContext } from './record-map.ts'
import { parseSkipped, reportAfter, SkipTally, storedReport } from './skipped-records.ts'
import { StagedList } from './staged-list.ts'
import { IxfrNotExact, TooManyIxfrSteps, TransferTooLarge } from './transfer-errors.ts'
import {
  COUNT_RECORD_CHARS,
  DELETE_SOME,
  DELETE_STAGED,
  EXACT,
  LOG_SOA,
  LOG_STAGED_ADDS,
  LOG_STAGED_DELETES,
  NOT_EXACT,
  insertStaged,
  stagedRow,
  stagedValue,
  type ZoneNames,
} from './staged-records.ts'

/**
 * Records per staging, delete and insert statement (a staging statement's JSON also stays under
 * D1's string limit, staged-list.ts): no statement of a transfer of any size handles more records
 * than this, so each stays far below D1's per-query time, and a million records take about fifty
 * statements of each kind (D1's 1,000 queries an invocation, docs/limits.md).
 */
const ROWS_PER_STATEMENT = 20_000

/** About the most characters of content one of an AXFR's delete statements removes (by the zone's average). */
const DELETE_CHARS = 20_000_000

/**
 * Records one transfer may hold (additions and deletions, staged or skipped): a bound on what a
 * primary can write into the shard's staging table. Three times the largest zone whose commit
 * fits in D1's 30 seconds (a million records, BENCHMARKS.md), so an IXFR deleting and adding every
 * record of such a zone fits too.
 */
const MAX_TRANSFER_RECORDS = 3_000_000

/**
 * Runs of an IXFR one transfer is applied in at most. A run starts at a deletion that follows an
 * addition (steps that only add, only delete, or only move the SOA join their neighbours); each
 * costs up to two staging statements while the transfer arrives and six or more in the commit
 * (a deletion and an addition range, each with its EXACT guard and change-log rows), so a longer IXFR stops at once
 * and the zone is pulled by AXFR instead: 100 runs keep a commit's statements in the hundreds.
 */
const MAX_IXFR_STEPS = 100

/**
 * The most records an IXFR may delete and add and still be logged record by record (the builder
 * then rebuilds only the names they touch, as after a records batch of as many changes); a larger
 * one is logged as one full build, as an AXFR is: its commit writes no log row a record, and past
 * a quarter of the zone the builder would choose a full build itself. The records API's largest
 * batch.
 */
const PER_RECORD_LOG = 50_000

/**
 * The most records an AXFR may bring to be applied as its difference from the copy held
 * (axfr-difference.ts): their fingerprints are held in memory, about 21 bytes a record (23 MB at
 * this bound), whatever the records' length. A zone of a million records and a few more.
 */
const AXFR_DIFF_LIMIT = 1_100_000

/** The primary's SOA becomes the zone's; a good transfer also ends an expiry. */
const SET_SOA = `UPDATE zones SET serial = ?2, soa_mname = ?3, soa_rname = ?4, soa_refresh = ?5,
  soa_retry = ?6, soa_expire = ?7, soa_minimum = ?8, soa_ttl = ?9, secondary_expired = 0 WHERE id = ?1`

/** Fails the batch (the guard's NOT NULL on `version`) unless the zone is still secondary. */
const SECONDARY_ONLY = `UPDATE zones SET version = CASE WHEN type = 'secondary' THEN version END WHERE id = ?1`

export interface StageTarget {
  zoneId: string
  zoneName: string
  /** The primary the transfer comes from (held-copy.ts `copySource`). */
  source?: string
  /**
   * The zone holds no copy (a first transfer): an AXFR then replaces nothing, so no fingerprints
   * of its records are kept for a difference.
   */
  noCopy?: boolean
}

/**
 * A transfer being received: `sink` stages each record as it arrives; `commit` applies it in one
 * batch; `discard` removes the staged rows (always call it, after a commit or a failure).
 */
export class TransferStage {
  readonly #adds: StagedList
  readonly #deletes: StagedList
  readonly #newId = recordIdGenerator()
  readonly #now: string
  readonly #map: MapContext
  readonly #zone: ZoneNames
  /** Records the transfer held that our model does not (see record-map.ts), by type. */
  readonly skipped = new SkipTally()
  /**
   * How the last commit applied the transfer: record by record (`increment`: an IXFR), as its
   * difference from the copy held (`difference`: an AXFR), or every record replaced (`whole`).
   */
  applied: 'increment' | 'difference' | 'whole' | null = null
  /**
   * Where each IXFR step starts in the two staged lists: a deletion after an addition starts one
   * (consecutive additions of steps without deletions stay one run, in order).
   */
  readonly #steps: { deletes: number; adds: number }[] = [{ deletes: 0, adds: 0 }]
  #lastOp: 'add' | 'delete' | null = null
  /** Records received (staged or skipped), held to `maxRecords`. */
  #received = 0
  readonly #id = crypto.randomUUID()
  /**
   * The fingerprints of an AXFR's records, kept while there are at most `diffLimit` (null past
   * that, once a deletion shows an IXFR, or when the zone holds no copy): what its difference
   * from the copy held is found from.
   */
  #fingerprints: Fingerprints | null
  /** An AXFR's difference from the copy held, as the deletions and additions of one IXFR step. */
  readonly #diff: { dels: StagedList; adds: StagedList }
  /**
   * Whether the first commit attempt staged a difference that applies (`#diff`), reused by the
   * attempts after a conflict: a transfer is its zone's only writer of records, and were they
   * changed meanwhile, the EXACT guard would fail and the AXFR replace them whole.
   */
  #diffStaged: boolean | undefined
  /** Set when a difference did not apply exactly: the AXFR then replaces the records. */
  #replaceWhole = false

  constructor(
    private readonly db: D1Database,
    private readonly target: StageTarget,
    private readonly rowsPerStatement = ROWS_PER_STATEMENT,
    private readonly maxRecords = MAX_TRANSFER_RECORDS,
    private readonly perRecordLog = PER_RECORD_LOG,
    diffLimit = AXFR_DIFF_LIMIT
  ) {
    const id = this.#id
    this.#now = new Date().toISOString()
    this.#adds = new StagedList(db, `xfr:${id}`, target.zoneId, this.#now, rowsPerStatement)
    this.#deletes = new StagedList(db, `xfr-del:${id}`, target.zoneId, this.#now, rowsPerStatement)
    this.#diff = {
      dels: new StagedList(db, `xfr-ddel:${id}`, target.zoneId, this.#now, rowsPerStatement),
      adds: new StagedList(db, `xfr-dadd:${id}`, target.zoneId, this.#now, rowsPerStatement),
    }
    const { zoneId, zoneName } = target
    this.#map = { zoneId, zoneName, now: this.#now, newId: this.#newId }
    this.#zone = { name: target.zoneName, rev: reverseName(target.zoneName) }
    this.#fingerprints = target.noCopy ? null : new Fingerprints(diffLimit)
  }

  readonly sink = async (op: 'add' | 'delete', rr: MessageRR): Promise<void> => {
    if (++this.#received > this.maxRecords) throw new TransferTooLarge(this.maxRecords)
    const rec = mapOrSkip(rr, this.#map)
    if (typeof rec === 'string') {
      this.skipped.note(op, rr.type.toUpperCase(), rec)
      return
    }
    if (op === 'delete' && this.#lastOp === 'add') {
      if (this.#steps.length >= MAX_IXFR_STEPS) throw new TooManyIxfrSteps(MAX_IXFR_STEPS)
      this.#steps.push({
        deletes: await this.#deletes.boundary(),
        adds: await this.#adds.boundary(),
      })
    }
    this.#lastOp = op
    const row = stagedRow(rec, this.#now, this.#zone)
    if (op === 'delete' || !this.#fingerprints?.add(stagedValue(row))) this.#fingerprints = null
    await (op === 'add' ? this.#adds : this.#deletes).addJson(JSON.stringify(row))
  }

  /**
   * An AXFR's difference from the copy the zone holds, staged as the deletions and additions of
   * one IXFR step; null when it is not applied so (see axfr-difference.ts).
   */
  async #stageDifference(): Promise<{ dels: StagedList; adds: StagedList } | null> {
    const incoming = this.#fingerprints
    if (!incoming || this.#replaceWhole) return null
    this.#diffStaged ??= await stageDifference({
      db: this.db,
      zoneId: this.target.zoneId,
      incoming,
      incomingRows: this.#adds,
      maxChanges: this.perRecordLog,
      ...this.#diff,
    })
    return this.#diffStaged ? this.#diff : null
  }

  /**
   * Applies the staged transfer as one change; `replace`: an AXFR (every record replaced);
   * `skipped`: what the copy an IXFR applies to lacks (`heldSkipped`, read with the guard; absent:
   * no report). Returns the change sequence it committed up to (what the builder is told to reach).
   */
  async commit(r: {
    guard: ZoneGuard
    soa: MessageRR
    replace: boolean
    skipped?: string | null
  }): Promise<number> {
    await this.#adds.flush()
    await this.#deletes.flush()
    const { db } = this
    const { zoneId } = this.target
    const now = new Date().toISOString()
    const soa = zoneSoaOf(r.soa)
    // An AXFR into a zone holding a copy applies its difference from that copy when it can.
    const diff = r.replace ? await this.#stageDifference() : null
    // What the copy lacks: an AXFR's own report; an IXFR's applied to the copy's (read with the
    // guard, so the version guard fails the commit if it moved since), none while it has none.
    const held = r.replace ? null : parseSkipped(r.skipped ?? null)
    const report = reportAfter(this.skipped, held, r.replace)
    const skipped = report && storedReport(report)
    const insert = db.prepare(insertStaged('REPLACE'))
    // An IXFR of up to `perRecordLog` records logs each record it changes, and the builder
    // rebuilds only the names they touch; an AXFR, or a larger IXFR, logs one `replace`.
    const recordChanges = diff
      ? diff.dels.records() + diff.adds.records()
      : this.#deletes.records() + this.#adds.records()
    const perRecord = diff !== null || (!r.replace && recordChanges <= this.perRecordLog)
    this.applied = diff ? 'difference' : perRecord ? 'increment' : 'whole'
    const changes = perRecord ? recordChanges + 1 : 1
    const stmts = [
      guardStatement(db, { zoneId, guard: r.guard, now }, changes),
      // A zone made another type while the transfer ran is not written (as a version conflict).
      db.prepare(SECONDARY_ONLY).bind(zoneId),
      ...(r.replace && !diff
        ? [
            ...(await this.#deleteAll()),
            ...this.#adds
              .ranges()
              .map(([lo, hi]) => insert.bind(this.#adds.id, zoneId, lo, hi, this.#now)),
          ]
        : this.#applySteps(perRecord ? { after: r.guard.changeSeq, now } : null, diff)),
      // The zone as the statements above leave it must be one a server may serve (zone-shape.ts).
      ...zoneShapeGuards(db, zoneId, r.replace ? (diff?.adds ?? null) : this.#adds),
      // Logged record by record, the transfer ends with the zone's SOA before it (read here,
      // before SET_SOA): the SOA an IXFR out of this zone starts its difference from.
      ...(perRecord ? [db.prepare(LOG_SOA).bind(zoneId, r.guard.changeSeq + changes, now)] : []),
      db
        .prepare(SET_SOA)
        .bind(
          zoneId,
          soa.serial,
          soa.mname,
          soa.rname,
          soa.refresh,
          soa.retry,
          soa.expire,
          soa.minimum,
          soa.ttl
        ),
      // Otherwise one `replace` (a full build), after the records.
      ...(perRecord
        ? []
        : [zoneLogStatement(db, zoneId, r.guard.changeSeq + changes, 'replace', now)]),
      recordCopy(db, zoneId, {
        serial: soa.serial,
        at: now,
        source: this.target.source ?? null,
        skipped,
      }),
    ]
    try {
      await commitZoneChange(db, stmts)
    } catch (e) {
      const shape = badShapeOf(e)
      if (shape) throw shape
      const notExact = String((e as Error | undefined)?.message ?? e).includes(NOT_EXACT)
      if (notExact && diff) {
        // An AXFR holding two records of one identity (or a copy changed behind the guard's
        // back, which is not expected): replaced whole instead.
        console.warn('transfer: an AXFR difference did not apply exactly; replacing', zoneId)
        this.#replaceWhole = true
        return this.commit(r)
      }
      throw notExact ? new IxfrNotExact({ cause: e }) : e
    }
    this.#fingerprints = null // committed: the memory goes before the builder's first step
    return r.guard.changeSeq + changes
  }

  /**
   * An IXFR's steps in order, each its deletions then its additions, every range followed by its
   * EXACT guard: a later step applies to what the earlier ones made (a record one step adds,
   * another may delete). With `log`, each record deleted or added gets its change-log row, at the
   * sequences after `log.after` in the order they apply: a deletion's before its DELETE (its
   * before-image is read from the record), an addition's after its EXACT guard (which reads the
   * insert's `changes()`).
   */
  #applySteps(
    log: { after: number; now: string } | null,
    diff: { dels: StagedList; adds: StagedList } | null
  ): D1PreparedStatement[] {
    const { db } = this
    const { zoneId } = this.target
    const insert = db.prepare(insertStaged('IGNORE'))
    const [dels, adds] = diff ? [diff.dels, diff.adds] : [this.#deletes, this.#adds]
    const steps = diff ? [{ deletes: 0, adds: 0 }] : this.#steps
    let seq = log?.after ?? 0
    /** The change-log statement of staged rows lo … hi of `list`, moving `seq` past them. */
    const logged = (sql: string, list: StagedList, lo: number, hi: number) => {
      if (!log) return []
      const statement = db.prepare(sql).bind(zoneId, list.id, lo, hi, seq, log.now)
      seq += list.records(lo, hi)
      return [statement]
    }
    return steps.flatMap((step, i) => {
      const next = steps[i + 1]
      return [
        ...dels
          .ranges(step.deletes, next?.deletes)
          .flatMap(([lo, hi]) => [
            ...logged(LOG_STAGED_DELETES, dels, lo, hi),
            db.prepare(DELETE_STAGED).bind(zoneId, dels.id, lo, hi),
            db.prepare(EXACT).bind(zoneId, dels.id, lo, hi),
          ]),
        ...adds
          .ranges(step.adds, next?.adds)
          .flatMap(([lo, hi]) => [
            insert.bind(adds.id, zoneId, lo, hi, this.#now),
            db.prepare(EXACT).bind(zoneId, adds.id, lo, hi),
            ...logged(LOG_STAGED_ADDS, adds, lo, hi),
          ]),
      ]
    })
  }

  async discard(): Promise<void> {
    for (const list of [this.#adds, this.#deletes, this.#diff.dels, this.#diff.adds])
      await list.discard()
  }

  /**
   * Statements deleting every record the zone holds now, each at most `rowsPerStatement` rows, and
   * fewer when the zone's records average so long that as many would pass DELETE_CHARS. The count
   * is exact for the version the commit's guard expects (the transfer is the one writer of a
   * secondary zone's records, and any other write moves the version, failing the guard); one more
   * statement than the count needs is added as a margin, a no-op when nothing is left.
   */
  async #deleteAll(): Promise<D1PreparedStatement[]> {
    const { db, rowsPerStatement } = this
    const { zoneId } = this.target
    const { n, chars } = (await db
      .prepare(COUNT_RECORD_CHARS)
      .bind(zoneId)
      .first<{ n: number; chars: number }>()) ?? { n: 0, chars: 0 }
    const per =
      chars > 0
        ? Math.max(1, Math.min(rowsPerStatement, Math.floor((n * DELETE_CHARS) / chars)))
        : rowsPerStatement
    return Array.from({ length: Math.ceil(n / per) + 1 }, () =>
      db.prepare(DELETE_SOME).bind(zoneId, per)
    )
  }
}
