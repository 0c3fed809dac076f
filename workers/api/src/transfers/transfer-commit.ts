/**
 * @module A received transfer becomes ONE atomic change of the zone, like a large import:
 *
 * 1. Stage: while the transfer streams in, its records (and an IXFR's deletions) go to
 *    `import_staging` in bounded statements under this transfer's own id, each staged row holding
 *    up to `RECORDS_PER_ROW` records, of each only the columns in which a transfer's records differ
 *    (the table's row and index writes, and the discard's deletes, are per staged row). Nothing reads that
 *    table, so the zone is served exactly as before, and a transfer that breaks off leaves only
 *    staged rows, which are discarded (the cron removes any a dead worker left).
 * 2. Commit: one D1 batch: the zone's version guard, the records replaced (AXFR: the old ones
 *    deleted in statements of at most `rowsPerStatement` rows each, then the staged ones inserted
 *    in ranges of the same size) or the deletions and additions applied (IXFR), the zone's SOA set from the primary's (its serial is
 *    the zone's serial), a full-build change-log row (the builder rewrites the zone's keys), and
 *    `zone_transfers_incoming.soa_serial` / `checked_on`.
 *
 * A transfer is the one writer of a secondary zone's records: it writes them here directly,
 * never through the records API, which refuses writes to secondary zones.
 */
import type { MessageRR } from '@edgedns/dns-wire'
import { MAX_CHUNK_CHARS } from '../db/json-chunks.ts'
import {
  commitZoneChange,
  guardStatement,
  zoneLogStatement,
  type ZoneGuard,
} from '../commit/zone-change.ts'
import { recordIdGenerator } from '../http/ids.ts'
import { RECORD_COLUMNS, reverseName, type DnsRecord, type RecordRow } from '../records/model.ts'
import { mapTransferred, type MapContext } from './record-map.ts'

/**
 * Rows per staging, delete, insert and discard statement (each staging statement's JSON also stays
 * under the chunk limit), as for zone-file imports: no statement of a transfer of any size handles
 * more rows than this, so each stays far below D1's per-query time.
 */
const ROWS_PER_STATEMENT = 5000
/** Records per staged row (see StagedList). */
const RECORDS_PER_ROW = 100

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

/** The value of column `c` in INSERT_STAGED's SELECT (`j.value`: one record of a staged row). */
function insertValue(c: Column): string {
  if (isStaged(c)) return `j.value ->> ${col(c)}`
  if (c === 'zone_id') return '?2'
  if (c === 'created_on' || c === 'modified_on') return '?5'
  return sqlLiteral(FIXED[c])
}

const STAGE_ROWS = `INSERT INTO import_staging (import_id, ord, zone_id, row, created_on)
  SELECT ?1, ?2 + key, ?3, value, ?4 FROM json_each(?5)`

/** The zone's records an AXFR replaces, counted before the commit… */
const COUNT_RECORDS = 'SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1'
/** …and deleted at most ?2 at a time. */
const DELETE_SOME = `DELETE FROM dns_records WHERE rowid IN (
  SELECT rowid FROM dns_records WHERE zone_id = ?1 LIMIT ?2)`

/** The zone's records an IXFR's staged deletions name (by identity: name, type, content, priority). */
const DELETE_STAGED = `DELETE FROM dns_records AS r WHERE r.zone_id = ?1 AND EXISTS (
  SELECT 1 FROM import_staging AS s, json_each(s.row) AS j WHERE s.import_id = ?2
    AND j.value ->> ${col('name_rev')} = r.name_rev AND j.value ->> ${col('type')} = r.type
    AND j.value ->> ${col('content')} = r.content
    AND ifnull(j.value ->> ${col('priority')}, -1) = ifnull(r.priority, -1))`

/** Staged additions; one with the identity of a record already there replaces it (its TTL may differ). */
const INSERT_STAGED = `INSERT OR REPLACE INTO dns_records (${RECORD_COLUMNS.join(', ')})
  SELECT ${RECORD_COLUMNS.map(insertValue).join(', ')}
  FROM import_staging AS s, json_each(s.row) AS j
  WHERE s.import_id = ?1 AND s.ord BETWEEN ?3 AND ?4 ORDER BY s.ord, j.key`

/** The primary's SOA becomes the zone's; a good transfer also ends an expiry. */
const SET_SOA = `UPDATE zones SET serial = ?2, soa_mname = ?3, soa_rname = ?4, soa_refresh = ?5,
  soa_retry = ?6, soa_expire = ?7, soa_minimum = ?8, soa_ttl = ?9, secondary_expired = 0 WHERE id = ?1`

/** Expiry on or off; the serial stays the primary's (the guard would move it). */
const SET_EXPIRED = 'UPDATE zones SET secondary_expired = ?2, serial = ?3 WHERE id = ?1'

const SET_INCOMING = `UPDATE zone_transfers_incoming SET soa_serial = ?2, checked_on = ?3 WHERE zone_id = ?1`

const DISCARD = 'DELETE FROM import_staging WHERE import_id = ?1 AND ord BETWEEN ?2 AND ?3'

/**
 * One staged list (additions or deletions), flushed in bounded statements as it fills. A staged
 * row holds up to `RECORDS_PER_ROW` records (a JSON array of their staged columns): the table's
 * row and index writes, and the discard's deletes, are per staged row, not per record.
 */
class StagedList {
  /** Staged rows written (their `ord`s are 0 … rows - 1). */
  #stagedRows = 0
  /** JSON of the records not flushed yet. */
  #records: string[] = []
  #chars = 0
  readonly #perRow: number
  constructor(
    private readonly db: D1Database,
    readonly id: string,
    private readonly zoneId: string,
    private readonly now: string,
    private readonly rowsPerStatement: number
  ) {
    this.#perRow = Math.min(RECORDS_PER_ROW, rowsPerStatement)
  }

  async add(row: unknown[]): Promise<void> {
    const json = JSON.stringify(row)
    if (
      this.#records.length >= this.rowsPerStatement ||
      this.#chars + json.length > MAX_CHUNK_CHARS / 2
    )
      await this.flush()
    this.#records.push(json)
    this.#chars += json.length + 1
  }

  async flush(): Promise<void> {
    if (this.#records.length === 0) return
    const rows: string[] = []
    for (let i = 0; i < this.#records.length; i += this.#perRow)
      rows.push(`[${this.#records.slice(i, i + this.#perRow).join(',')}]`)
    const first = this.#stagedRows
    this.#stagedRows += rows.length
    this.#records = []
    this.#chars = 0
    await this.db
      .prepare(STAGE_ROWS)
      .bind(this.id, first, this.zoneId, this.now, `[${rows.join(',')}]`)
      .run()
  }

  /** `ord` ranges of staged rows holding at most `rowsPerStatement` records each. */
  ranges(): [number, number][] {
    const per = Math.max(1, Math.floor(this.rowsPerStatement / this.#perRow))
    const out: [number, number][] = []
    for (let lo = 0; lo < this.#stagedRows; lo += per)
      out.push([lo, Math.min(this.#stagedRows, lo + per) - 1])
    return out
  }

  async discard(): Promise<void> {
    for (const [lo, hi] of this.ranges()) await this.db.prepare(DISCARD).bind(this.id, lo, hi).run()
  }
}

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

  constructor(
    private readonly db: D1Database,
    private readonly target: StageTarget,
    private readonly rowsPerStatement = ROWS_PER_STATEMENT
  ) {
    const id = crypto.randomUUID()
    this.#now = new Date().toISOString()
    this.#adds = new StagedList(db, `xfr:${id}`, target.zoneId, this.#now, rowsPerStatement)
    this.#deletes = new StagedList(db, `xfr-del:${id}`, target.zoneId, this.#now, rowsPerStatement)
    this.#map = { ...target, now: this.#now, newId: this.#newId }
    this.#zone = { name: target.zoneName, rev: reverseName(target.zoneName) }
  }

  readonly sink = async (op: 'add' | 'delete', rr: MessageRR): Promise<void> => {
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
    const stmts = [
      guardStatement(db, { zoneId, guard: r.guard, now }, 1),
      ...(r.replace
        ? await this.#deleteAll()
        : [db.prepare(DELETE_STAGED).bind(zoneId, this.#deletes.id)]),
      ...this.#adds
        .ranges()
        .map(([lo, hi]) =>
          db.prepare(INSERT_STAGED).bind(this.#adds.id, zoneId, lo, hi, this.#now)
        ),
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
    await commitZoneChange(db, stmts)
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
