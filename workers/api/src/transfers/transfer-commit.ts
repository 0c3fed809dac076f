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
 *    same size, each found through the identity index, and the whole batch refused unless every
 *    deletion removed a record and every addition added one), the zone's SOA set from the
 *    primary's (its serial is the zone's serial), a full-build change-log row (the builder rewrites the zone's keys), and
 *    `zone_transfers_incoming.soa_serial` / `checked_on`.
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
import { RECORD_COLUMNS, reverseName, type DnsRecord, type RecordRow } from '../records/model.ts'
import { mapTransferred, type MapContext } from './record-map.ts'
import { StagedList } from './staged-list.ts'

/**
 * Rows per staging, delete, insert and discard statement (each staging statement's JSON also stays
 * under the chunk limit), as for zone-file imports: no statement of a transfer of any size handles
 * more rows than this, so each stays far below D1's per-query time.
 */
const ROWS_PER_STATEMENT = 5000

type Column = (typeof RECORD_COLUMNS)[number]

/**
 * The columns in which the records of one transfer differ: a staged row holds these alone. Every
 * other column is the same for all of a transfer's records (record-map.ts maps them unproxied,
 * with no comment, tags or settings, created now): the commit writes those from `FIXED` and its
 * parameters, and a record that differs in them is refused before it is staged.
 */
const STAGED_COLUMNS = [
  'id',
  'name',
  'name_rev',
  'type',
  'content',
  'data',
  'priority',
  'ttl',
] as const satisfies readonly Column[]
type StagedColumn = (typeof STAGED_COLUMNS)[number]

/** The fixed columns' values (zone_id and the two timestamps are the commit's parameters). */
const FIXED = {
  proxied: 0,
  comment: null,
  tags: '[]',
  settings: '{}',
  comment_modified_on: null,
  tags_modified_on: null,
} as const satisfies Partial<RecordRow>

const col = (name: StagedColumn): number => STAGED_COLUMNS.indexOf(name)
const isStaged = (c: Column): c is StagedColumn => (STAGED_COLUMNS as readonly string[]).includes(c)
const sqlLiteral = (v: string | number | null): string =>
  v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`

/**
 * A record's staged row, after checking that its fixed columns are the transfer's: the columns
 * `toRow` gives, taken from the record directly (no JSON of its empty tags and settings per record).
 */
function stagedRow(rec: DnsRecord, now: string, zone: ZoneNames): unknown[] {
  if (
    rec.proxied ||
    rec.comment !== null ||
    rec.tags.length > 0 ||
    Object.keys(rec.settings).length > 0 ||
    rec.commentModifiedOn !== null ||
    rec.tagsModifiedOn !== null
  )
    throw new Error('transfer staging: a fixed column is not the same for every record')
  if (rec.createdOn !== now || rec.modifiedOn !== now)
    throw new Error('transfer staging: records are created at the transfer time')
  const row: Pick<RecordRow, StagedColumn> = {
    id: rec.id,
    name: rec.name,
    name_rev: nameRevIn(rec.name, zone),
    type: rec.type,
    content: rec.content,
    data: rec.data === null ? null : JSON.stringify(rec.data),
    priority: rec.priority,
    ttl: rec.ttl,
  }
  return STAGED_COLUMNS.map((c) => row[c])
}

/** The zone's name and its reversed name (`reverseName`). */
interface ZoneNames {
  name: string
  rev: string
}

/**
 * `reverseName(name)` for a name in the zone, reversing only the labels before the zone's: the
 * reversed name of `rel.zone` is the zone's reversed name, a dot, and `rel` reversed.
 */
function nameRevIn(name: string, zone: ZoneNames): string {
  if (name === zone.name) return zone.rev
  const cut = name.length - zone.name.length - 1
  if (cut <= 0 || !name.endsWith(zone.name) || name.charCodeAt(cut) !== 0x2e)
    return reverseName(name)
  const rel = name.slice(0, cut)
  return `${zone.rev}.${rel.includes('.') ? reverseName(rel) : rel}`
}

/** The value of column `c` in insertStaged's SELECT (`j.value`: one record of a staged row). */
function insertValue(c: Column): string {
  if (isStaged(c)) return `j.value ->> ${col(c)}`
  if (c === 'zone_id') return '?2'
  if (c === 'created_on' || c === 'modified_on') return '?5'
  return sqlLiteral(FIXED[c])
}

/** The zone's records an AXFR replaces, counted before the commit… */
const COUNT_RECORDS = 'SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1'
/** …and deleted at most ?2 at a time. */
const DELETE_SOME = `DELETE FROM dns_records WHERE rowid IN (
  SELECT rowid FROM dns_records WHERE zone_id = ?1 LIMIT ?2)`

/**
 * The zone's records an IXFR's staged deletions (staged rows ?3..?4) name, by identity (name, type,
 * content, priority): driven from the staged side, each deletion found through the identity index,
 * so its cost is the deletions', not the zone's size times theirs.
 */
export const DELETE_STAGED = `DELETE FROM dns_records WHERE rowid IN (
  SELECT r.rowid FROM import_staging AS s CROSS JOIN json_each(s.row) AS j
    CROSS JOIN dns_records AS r INDEXED BY dns_records_identity
  WHERE s.import_id = ?2 AND s.ord BETWEEN ?3 AND ?4 AND r.zone_id = ?1
    AND r.name_rev = j.value ->> ${col('name_rev')} AND r.type = j.value ->> ${col('type')}
    AND r.content = j.value ->> ${col('content')}
    AND ifnull(r.priority, -1) = ifnull(j.value ->> ${col('priority')}, -1))`

/**
 * Staged additions (rows ?3..?4). AXFR: one with the identity of another replaces it. IXFR: one
 * with the identity of a record the zone holds is left out, and EXACT then fails the commit.
 */
const insertStaged = (conflict: 'REPLACE' | 'IGNORE') => `INSERT OR ${conflict} INTO dns_records
  (${RECORD_COLUMNS.join(', ')}) SELECT ${RECORD_COLUMNS.map(insertValue).join(', ')}
  FROM import_staging AS s, json_each(s.row) AS j
  WHERE s.import_id = ?1 AND s.ord BETWEEN ?3 AND ?4 ORDER BY s.ord, j.key`

/**
 * An IXFR's guard after each of its DELETE_STAGED and insert statements: unless that statement
 * (`changes()`: the one before it in the batch) changed one row for every record of its staged
 * rows (list ?2, rows ?3..?4), the difference does not apply to the copy we hold (a deletion of a
 * record we do not have, an addition of one we have, a record named twice): the NULL then fails
 * the whole batch, and nothing of the IXFR is kept.
 */
const EXACT = `UPDATE zones SET secondary_expired = CASE WHEN changes() = (
    SELECT ifnull(sum(json_array_length(s.row)), 0) FROM import_staging AS s
    WHERE s.import_id = ?2 AND s.ord BETWEEN ?3 AND ?4)
  THEN secondary_expired END WHERE id = ?1`
const NOT_EXACT = 'NOT NULL constraint failed: zones.secondary_expired'

/**
 * An IXFR that does not apply to our copy of the zone (RFC 1995 §4: the primary's difference is
 * from another version than ours). Nothing of it was committed; pull the zone by AXFR instead.
 */
export class IxfrNotExact extends Error {
  constructor(options: { cause: unknown }) {
    super(
      'the IXFR does not apply to the zone we hold (a deletion or addition does not match)',
      options
    )
    this.name = 'IxfrNotExact'
  }
}

/**
 * Records one transfer may hold (additions and deletions, staged or skipped): a bound on what a
 * primary can write into the shard's staging table. Three times the largest zone whose commit
 * fits in D1's 30 seconds (a million records, BENCHMARKS.md), so an IXFR deleting and adding every
 * record of such a zone fits too.
 */
const MAX_TRANSFER_RECORDS = 3_000_000

/** A transfer that sent more records than its cap; nothing of it is committed. */
export class TransferTooLarge extends Error {
  constructor(cap: number) {
    super(`the transfer holds more than ${cap} records`)
    this.name = 'TransferTooLarge'
  }
}

/** The primary's SOA becomes the zone's; a good transfer also ends an expiry. */
const SET_SOA = `UPDATE zones SET serial = ?2, soa_mname = ?3, soa_rname = ?4, soa_refresh = ?5,
  soa_retry = ?6, soa_expire = ?7, soa_minimum = ?8, soa_ttl = ?9, secondary_expired = 0 WHERE id = ?1`

/** Expiry on or off; the serial stays the primary's (the guard would move it). */
const SET_EXPIRED = 'UPDATE zones SET secondary_expired = ?2, serial = ?3 WHERE id = ?1'

const SET_INCOMING = `UPDATE zone_transfers_incoming SET soa_serial = ?2, checked_on = ?3 WHERE zone_id = ?1`

/** The SOA fields the zone row keeps. */
interface ZoneSoa {
  mname: string
  rname: string
  serial: number
  refresh: number
  retry: number
  expire: number
  minimum: number
  ttl: number
}

/** The zone's SOA settings from the primary's SOA record. */
function zoneSoaOf(soa: MessageRR): ZoneSoa {
  const p = soa.data.trim().split(/\s+/)
  const name = (s: string) => s.toLowerCase().replace(/\.$/, '')
  const n = (i: number) => Number(p[i]) >>> 0
  return {
    mname: name(p[0]!),
    rname: name(p[1]!),
    serial: n(2),
    refresh: n(3),
    retry: n(4),
    expire: n(5),
    minimum: n(6),
    ttl: soa.ttl,
  }
}

export interface StageTarget {
  zoneId: string
  zoneName: string
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
  /** Records the transfer held that our model does not (see record-map.ts). */
  skipped = 0
  /** An IXFR deletion came after an addition: the steps cannot be applied as one difference. */
  reordered = false
  /** Records received (staged or skipped), held to `maxRecords`. */
  #received = 0

  constructor(
    private readonly db: D1Database,
    private readonly target: StageTarget,
    private readonly rowsPerStatement = ROWS_PER_STATEMENT,
    private readonly maxRecords = MAX_TRANSFER_RECORDS
  ) {
    const id = crypto.randomUUID()
    this.#now = new Date().toISOString()
    this.#adds = new StagedList(db, `xfr:${id}`, target.zoneId, this.#now, rowsPerStatement)
    this.#deletes = new StagedList(db, `xfr-del:${id}`, target.zoneId, this.#now, rowsPerStatement)
    this.#map = { ...target, now: this.#now, newId: this.#newId }
    this.#zone = { name: target.zoneName, rev: reverseName(target.zoneName) }
  }

  readonly sink = async (op: 'add' | 'delete', rr: MessageRR): Promise<void> => {
    if (++this.#received > this.maxRecords) throw new TransferTooLarge(this.maxRecords)
    const rec = mapTransferred(rr, this.#map)
    if (!rec) {
      this.skipped++
      return
    }
    if (op === 'delete' && this.#sawAdd) this.reordered = true
    if (op === 'add') this.#sawAdd = true
    await (op === 'add' ? this.#adds : this.#deletes).add(stagedRow(rec, this.#now, this.#zone))
  }

  #sawAdd = false

  /** Applies the staged transfer as one change; `replace`: an AXFR (every record replaced). */
  async commit(r: { guard: ZoneGuard; soa: MessageRR; replace: boolean }): Promise<void> {
    await this.#adds.flush()
    await this.#deletes.flush()
    const { db } = this
    const { zoneId } = this.target
    const now = new Date().toISOString()
    const soa = zoneSoaOf(r.soa)
    const insert = db.prepare(insertStaged(r.replace ? 'REPLACE' : 'IGNORE'))
    const adds = this.#adds
      .ranges()
      .flatMap(([lo, hi]) => [
        insert.bind(this.#adds.id, zoneId, lo, hi, this.#now),
        ...(r.replace ? [] : [db.prepare(EXACT).bind(zoneId, this.#adds.id, lo, hi)]),
      ])
    const stmts = [
      guardStatement(db, { zoneId, guard: r.guard, now }, 1),
      ...(r.replace ? await this.#deleteAll() : this.#deleteStaged()),
      ...adds,
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
      zoneLogStatement(db, zoneId, r.guard.changeSeq + 1, 'full', now),
      db.prepare(SET_INCOMING).bind(zoneId, soa.serial, now),
    ]
    try {
      await commitZoneChange(db, stmts)
    } catch (e) {
      throw String((e as Error | undefined)?.message ?? e).includes(NOT_EXACT)
        ? new IxfrNotExact({ cause: e })
        : e
    }
  }

  /** An IXFR's deletions, each range followed by its EXACT guard. */
  #deleteStaged(): D1PreparedStatement[] {
    const { db } = this
    const { zoneId } = this.target
    const { id } = this.#deletes
    return this.#deletes
      .ranges()
      .flatMap(([lo, hi]) => [
        db.prepare(DELETE_STAGED).bind(zoneId, id, lo, hi),
        db.prepare(EXACT).bind(zoneId, id, lo, hi),
      ])
  }

  async discard(): Promise<void> {
    await this.#adds.discard()
    await this.#deletes.discard()
  }

  /**
   * Statements deleting every record the zone holds now, each at most `rowsPerStatement` rows. The
   * count is exact for the version the commit's guard expects (the transfer is the one writer of a
   * secondary zone's records, and any other write moves the version, failing the guard); one more
   * statement than the count needs is added as a margin, a no-op when nothing is left.
   */
  async #deleteAll(): Promise<D1PreparedStatement[]> {
    const { db, rowsPerStatement } = this
    const { zoneId } = this.target
    const row = await db.prepare(COUNT_RECORDS).bind(zoneId).first<{ n: number }>()
    const statements = Math.ceil((row?.n ?? 0) / rowsPerStatement) + 1
    return Array.from({ length: statements }, () =>
      db.prepare(DELETE_SOME).bind(zoneId, rowsPerStatement)
    )
  }
}

/**
 * Marks the zone expired (it answers SERVFAIL) or live again, as one guarded change with a
 * zone-level change-log entry, so the builder republishes the zone's metadata.
 */
export async function commitExpiry(
  db: D1Database,
  zoneId: string,
  guard: ZoneGuard,
  expired: boolean
): Promise<number> {
  const now = new Date().toISOString()
  await commitZoneChange(db, [
    guardStatement(db, { zoneId, guard, now }, 1),
    db.prepare(SET_EXPIRED).bind(zoneId, expired ? 1 : 0, guard.serial),
    zoneLogStatement(db, zoneId, guard.changeSeq + 1, 'zone', now),
  ])
  return guard.changeSeq + 1
}
