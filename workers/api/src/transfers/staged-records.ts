/**
 * @module How a transfer's records are staged and applied in SQL: a staged record holds only the
 * columns in which a transfer's records differ (`stagedRow`); the statements that replace a zone's
 * records (AXFR), or delete and add the staged ones through the identity index with a guard that
 * each applied exactly (IXFR), read them back from `import_staging`.
 */
import { BEFORE_IMAGE } from '../commit/zone-change.ts'
import { RECORD_COLUMNS, reverseName, type DnsRecord, type RecordRow } from '../records/model.ts'

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

/** A staged row's identity index key (name_rev, type, content, ifnull(priority, -1)): HELD_PAGE's keyset. */
export const stagedKey = (row: readonly unknown[]): unknown[] => [
  row[col('name_rev')],
  row[col('type')],
  row[col('content')],
  row[col('priority')] ?? -1,
]

/**
 * A staged row's identity (what SAME_IDENTITY matches and the identity index keeps unique), and
 * with it everything else a transfer writes of the record (TTL, data): two staged rows of equal
 * `stagedValue` are the same record.
 */
const stagedIdentity = (row: readonly unknown[]): string => stagedKey(row).join('\u0000')
export const stagedValue = (row: readonly unknown[]): string =>
  `${stagedIdentity(row)}\u0000${row[col('ttl')]}\u0000${row[col('data')] ?? ''}`

/** The held records' order and keyset (HELD_PAGE, HELD_CHARS): the identity index's. */
const HELD_FROM = `FROM dns_records INDEXED BY dns_records_identity
  WHERE zone_id = ?1 AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
  ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`

/**
 * A page of the zone's records as staged rows (`r` the row, after the identity key ?2…?5, at most
 * ?6), each with `plain`: whether its fixed columns are a transfer's (a record of a zone that was
 * primary before may have a comment or tags, and is then never the same as a transferred one).
 */
export const HELD_PAGE = `SELECT json_array(${STAGED_COLUMNS.join(', ')}) AS r,
    (proxied = 0 AND comment IS NULL AND tags = '[]' AND settings = '{}'
      AND comment_modified_on IS NULL AND tags_modified_on IS NULL) AS plain
  ${HELD_FROM}`

/**
 * The characters of the names, contents and data of the records HELD_PAGE would read with the
 * same bindings (`chars`), and how many there are (`n`): what a page is sized by before it is read.
 */
export const HELD_CHARS = `SELECT ifnull(sum(own), 0) AS chars, count(*) AS n FROM (
  SELECT 2 * length(name) + length(content) + ifnull(length(data), 0) AS own ${HELD_FROM})`

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

/** The reversed owner name of the staged record `j.value` (a row of `json_each(s.row) AS j`). */
export const STAGED_NAME_REV = `j.value ->> ${col('name_rev')}`
const isStaged = (c: Column): c is StagedColumn => (STAGED_COLUMNS as readonly string[]).includes(c)
const sqlLiteral = (v: string | number | null): string =>
  v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`

/**
 * A record's staged row, after checking that its fixed columns are the transfer's: the columns
 * `toRow` gives, taken from the record directly (no JSON of its empty tags and settings per record).
 */
export function stagedRow(rec: DnsRecord, now: string, zone: ZoneNames): unknown[] {
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
export interface ZoneNames {
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

/** The zone's records (an AXFR's difference is found from)… */
export const COUNT_RECORDS = 'SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1'
/** …with their contents' characters (read from the identity index): what an AXFR replaces… */
export const COUNT_RECORD_CHARS = `SELECT count(*) AS n, ifnull(sum(length(content)), 0) AS chars
  FROM dns_records INDEXED BY dns_records_identity WHERE zone_id = ?1`
/** …deleted at most ?2 at a time. */
export const DELETE_SOME = `DELETE FROM dns_records WHERE rowid IN (
  SELECT rowid FROM dns_records WHERE zone_id = ?1 LIMIT ?2)`

/** The identity match of DELETE_STAGED: record `r` is the one staged record `j.value` names. */
const SAME_IDENTITY = `r.name_rev = j.value ->> ${col('name_rev')} AND r.type = j.value ->> ${col('type')}
    AND r.content = j.value ->> ${col('content')}
    AND ifnull(r.priority, -1) = ifnull(j.value ->> ${col('priority')}, -1)`

/**
 * The zone's records an IXFR's staged deletions (staged rows ?3..?4) name, by identity (name, type,
 * content, priority): driven from the staged side, each deletion found through the identity index,
 * so its cost is the deletions', not the zone's size times theirs.
 */
export const DELETE_STAGED = `DELETE FROM dns_records WHERE rowid IN (
  SELECT r.rowid FROM import_staging AS s CROSS JOIN json_each(s.row) AS j
    CROSS JOIN dns_records AS r INDEXED BY dns_records_identity
  WHERE s.import_id = ?2 AND s.ord BETWEEN ?3 AND ?4 AND r.zone_id = ?1 AND ${SAME_IDENTITY})`

/**
 * The change-log rows of an IXFR's staged deletions (rows ?3..?4 of list ?2), written before
 * DELETE_STAGED removes the records: one `delete` row a record, at sequences ?5 + 1, ?5 + 2, … in
 * staged order, with the record's before-image as the records API's deletions log it. A deletion
 * that matches no record logs nothing; its EXACT guard then fails the whole batch.
 */
export const LOG_STAGED_DELETES = `INSERT INTO change_log
    (zone_id, seq, op, record_id, old_name, new_name, type, token_id, before, created_on)
  SELECT ?1, ?5 + row_number() OVER (ORDER BY s.ord, j.key), 'delete', r.id, r.name, NULL, r.type,
    NULL, ${BEFORE_IMAGE}, ?6
  FROM import_staging AS s CROSS JOIN json_each(s.row) AS j
    CROSS JOIN dns_records AS r INDEXED BY dns_records_identity
  WHERE s.import_id = ?2 AND s.ord BETWEEN ?3 AND ?4 AND r.zone_id = ?1 AND ${SAME_IDENTITY}`

/**
 * The change-log row that ends an IXFR's record-by-record log: op `soa`, the zone's SOA as it was
 * before the transfer set the primary's, in `before` as [mname, rname, serial, refresh, retry,
 * expire, minimum, TTL] (written before SET_SOA runs). An IXFR out of this zone starts its
 * difference from that SOA (change-steps.ts). Binds: ?1 zone id, ?2 sequence, ?3 time.
 */
export const LOG_SOA = `INSERT INTO change_log (zone_id, seq, op, before, created_on)
  SELECT id, ?2, 'soa', json_array(soa_mname, soa_rname, serial, soa_refresh, soa_retry,
    soa_expire, soa_minimum, soa_ttl), ?3 FROM zones WHERE id = ?1`

/**
 * The change-log rows of an IXFR's staged additions (rows ?3..?4 of list ?2), written after they
 * are inserted: one `create` row a record (its id, name and type from the staged row), at
 * sequences ?5 + 1, ?5 + 2, … in staged order.
 */
export const LOG_STAGED_ADDS = `INSERT INTO change_log
    (zone_id, seq, op, record_id, old_name, new_name, type, token_id, before, created_on)
  SELECT ?1, ?5 + row_number() OVER (ORDER BY s.ord, j.key), 'create', j.value ->> ${col('id')},
    NULL, j.value ->> ${col('name')}, j.value ->> ${col('type')}, NULL, NULL, ?6
  FROM import_staging AS s, json_each(s.row) AS j WHERE s.import_id = ?2 AND s.ord BETWEEN ?3 AND ?4`

/**
 * Staged additions (rows ?3..?4). AXFR: one with the identity of another replaces it. IXFR: one
 * with the identity of a record the zone holds is left out, and EXACT then fails the commit.
 */
export const insertStaged = (
  conflict: 'REPLACE' | 'IGNORE'
) => `INSERT OR ${conflict} INTO dns_records
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
export const EXACT = `UPDATE zones SET secondary_expired = CASE WHEN changes() = (
    SELECT ifnull(sum(json_array_length(s.row)), 0) FROM import_staging AS s
    WHERE s.import_id = ?2 AND s.ord BETWEEN ?3 AND ?4)
  THEN secondary_expired END WHERE id = ?1`
export const NOT_EXACT = 'NOT NULL constraint failed: zones.secondary_expired'
