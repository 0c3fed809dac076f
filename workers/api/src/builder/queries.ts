/**
 * @module D1 reads of the build pipeline. Every read is bounded and uses an index: change_log by
 * (zone_id, seq), dns_records by (zone_id, name_rev, …) for exact names and "names below X" ranges.
 */
import {
  BOUNDED_ROWS,
  boundedJoinedRowsSql,
  joinedFields,
  type JoinedRows,
} from '../db/joined-rows.ts'
import { jsonChunks } from '../db/json-chunks.ts'
import { reverseName } from '../records/model.ts'
import { VALUE_COLUMNS, type ValueRow, type ZoneDbRow } from './values.ts'

export interface LogRow {
  seq: number
  op: 'create' | 'update' | 'delete' | 'zone' | 'soa' | 'zone_delete' | 'full' | 'replace'
  old_name: string | null
  new_name: string | null
}

/** The rows of the next ?3 owner names after name_rev ?2, a name's rows together. */
const PAGE = `SELECT ${VALUE_COLUMNS} FROM dns_records WHERE zone_id = ?1 AND name_rev IN (
      SELECT DISTINCT name_rev FROM dns_records WHERE zone_id = ?1 AND name_rev > ?2 ORDER BY name_rev LIMIT ?3)
    ORDER BY name_rev, type, content`

/** A page row's fields in a joined page (`VALUE_COLUMNS`' order, NULLs as empty fields). */
const JOINED_FIELDS = [
  'name',
  'type',
  'content',
  "ifnull(data, '')",
  "ifnull(priority, '')",
  'ttl',
  'proxied',
]

/** Every statement of the pipeline, exported so a test can check their query plans. */
export const SQL = {
  // With whether outgoing transfers are enabled: a pass that moves the serial then sends NOTIFY.
  zone: `SELECT z.*, (SELECT o.enabled FROM zone_transfers_outgoing AS o WHERE o.zone_id = z.id)
    AS outgoing_enabled FROM zones AS z WHERE z.id = ?1 AND z.status != 'deleted'`,
  log: 'SELECT seq, op, old_name, new_name FROM change_log WHERE zone_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3',
  lastSeq: 'SELECT max(seq) AS seq FROM change_log WHERE zone_id = ?1',
  rowsOf: `SELECT ${VALUE_COLUMNS} FROM dns_records
    WHERE zone_id = ?1 AND name_rev IN (SELECT value FROM json_each(?2)) ORDER BY name_rev, type, content`,
  below: `SELECT j.value ->> 0 AS name FROM json_each(?2) j WHERE EXISTS (SELECT 1 FROM dns_records r
    WHERE r.zone_id = ?1 AND r.name_rev > (j.value ->> 1) || '.' AND r.name_rev < (j.value ->> 1) || '/')`,
  withRecords:
    'SELECT DISTINCT name FROM dns_records WHERE zone_id = ?1 AND name_rev IN (SELECT value FROM json_each(?2))',
  page: PAGE,
  // `page`'s rows as one joined string (db/joined-rows.ts), in the same order.
  joinedPage: boundedJoinedRowsSql(PAGE, JOINED_FIELDS),
  subzones:
    "SELECT name FROM zones WHERE name_rev > ?1 AND name_rev < ?2 AND status != 'deleted' AND activated_on IS NOT NULL ORDER BY name",
  liveZone:
    "SELECT id FROM zones WHERE name = ?1 AND status != 'deleted' AND activated_on IS NOT NULL",
} as const

/**
 * The zone row and the next change-log chunk after `after`, in one round trip; with `names`, the
 * current rows of those names too, and with `subzonesOf` (the zone's name, when the pass is
 * expected to rebuild the metadata) the hosted zones below it (same round trip, same
 * transaction as the log).
 */
export async function readZoneAndLog(
  db: D1Database,
  zoneId: string,
  after: number,
  limit: number,
  names: string[] = [],
  subzonesOf: string | null = null
): Promise<{
  zone: ZoneDbRow | null
  log: LogRow[]
  names: NameState | null
  subzones: { of: string; names: string[] } | null
}> {
  const named = names.length > 0 ? nameStatements(db, zoneId, names) : []
  const [zone, log, ...rest] = await db.batch([
    db.prepare(SQL.zone).bind(zoneId),
    db.prepare(SQL.log).bind(zoneId, after, limit),
    ...named.map((s) => s.stmt),
    ...(subzonesOf !== null ? [subzonesStatement(db, subzonesOf)] : []),
  ])
  const below = subzonesOf !== null ? rest.pop()! : null
  return {
    zone: (zone!.results[0] as ZoneDbRow | undefined) ?? null,
    log: log!.results as unknown as LogRow[],
    names: named.length > 0 ? nameState(named, rest) : null,
    subzones:
      below && subzonesOf !== null
        ? { of: subzonesOf, names: (below.results as { name: string }[]).map((r) => r.name) }
        : null,
  }
}

export async function readZone(db: D1Database, zoneId: string): Promise<ZoneDbRow | null> {
  return (await db.prepare(SQL.zone).bind(zoneId).first<ZoneDbRow>()) ?? null
}

/** Highest sequence committed for a zone, also after the zone row is gone (its zone_delete). */
export async function lastLoggedSeq(db: D1Database, zoneId: string): Promise<number> {
  const row = await db.prepare(SQL.lastSeq).bind(zoneId).first<{ seq: number | null }>()
  return row?.seq ?? 0
}

export interface NameState {
  /** Current rows per owner name (names without rows are absent). */
  rows: Map<string, ValueRow[]>
  /** Names that have at least one name below them (empty non-terminal candidates). */
  hasDescendants: Set<string>
  /** The names this state was read for (the two fields above say nothing about others). */
  names: Set<string>
}

/**
 * Current rows of `names` and which of them have a name below them (a name_rev range query per
 * name, `rev.` ≤ name_rev < `rev/`), in one round trip. The names travel as JSON bound parameters,
 * cut into chunks under D1's 2 MB string limit (a pass of 20,000 long names is several MB).
 */
export async function readNames(
  db: D1Database,
  zoneId: string,
  names: string[]
): Promise<NameState> {
  if (names.length === 0) return { rows: new Map(), hasDescendants: new Set(), names: new Set() }
  const named = nameStatements(db, zoneId, names)
  return nameState(named, await db.batch(named.map((s) => s.stmt)))
}

interface NameStatement {
  rows: boolean
  stmt: D1PreparedStatement
  names: string[]
}

function nameStatements(db: D1Database, zoneId: string, names: string[]): NameStatement[] {
  const revs = names.map((n) => [n, reverseName(n)] as const)
  return [
    ...jsonChunks(revs.map((r) => r[1])).map((chunk) => ({
      rows: true,
      stmt: db.prepare(SQL.rowsOf).bind(zoneId, chunk),
      names,
    })),
    ...jsonChunks(revs).map((chunk) => ({
      rows: false,
      stmt: db.prepare(SQL.below).bind(zoneId, chunk),
      names,
    })),
  ]
}

function nameState(stmts: NameStatement[], results: D1Result[]): NameState {
  const state: NameState = {
    rows: new Map(),
    hasDescendants: new Set(),
    names: new Set(stmts[0]?.names ?? []),
  }
  results.forEach((result, i) => {
    if (stmts[i]!.rows) {
      for (const r of result.results as unknown as ValueRow[]) {
        const list = state.rows.get(r.name)
        if (list) list.push(r)
        else state.rows.set(r.name, [r])
      }
    } else for (const r of result.results as { name: string }[]) state.hasDescendants.add(r.name)
  })
  return state
}

/** Which of `names` have records (one query). */
export async function namesWithRecords(
  db: D1Database,
  zoneId: string,
  names: string[]
): Promise<Set<string>> {
  if (names.length === 0) return new Set()
  const { results } = await db
    .prepare(SQL.withRecords)
    .bind(zoneId, JSON.stringify(names.map(reverseName)))
    .all<{ name: string }>()
  return new Set(results.map((r) => r.name))
}

export interface Page {
  /** Owner names in name_rev order with their rows. */
  names: { name: string; rows: ValueRow[] }[]
  /** Fewer than the requested number of names: nothing follows. */
  last: boolean
  /** A joined read was asked for and could not be used: the page was read as rows. */
  joinedFailed: boolean
}

/**
 * The next `limit` distinct owner names after `afterRev` (name_rev order, apex excluded), with all
 * their rows. With `joined`, read as one joined string (bounded: `boundedJoinedRowsSql`), and as
 * rows when that read fails, reached its row bound, or does not split back into whole names (a
 * row longer than the bound, a field holding the separator): `joinedFailed` then says so.
 */
export async function readPage(
  db: D1Database,
  zoneId: string,
  apexRev: string,
  afterRev: string,
  limit: number,
  joined = false
): Promise<Page> {
  const start = afterRev === '' ? apexRev : afterRev
  if (joined) {
    const read = await db
      .prepare(SQL.joinedPage)
      .bind(zoneId, start, limit)
      .first<JoinedRows>()
      .catch(() => null)
    const names = read && read.records < BOUNDED_ROWS ? namesOfJoined(read) : null
    if (names) return { names, last: names.length < limit, joinedFailed: false }
  }
  const { results } = await db.prepare(SQL.page).bind(zoneId, start, limit).all<ValueRow>()
  const names = namesOf(results)
  return { names, last: names.length < limit, joinedFailed: joined }
}

/** Rows grouped by name (a name's rows are contiguous: ordered by name_rev, one per name). */
function namesOf(rows: Iterable<ValueRow>): Page['names'] {
  const names: Page['names'] = []
  for (const r of rows) {
    const last = names[names.length - 1]
    if (last && last.name === r.name) last.rows.push(r)
    else names.push({ name: r.name, rows: [r] })
  }
  return names
}

const WIDTH = JOINED_FIELDS.length

/** A joined page's names, or null when its fields do not split into rows with each name's rows together. */
function namesOfJoined(joined: JoinedRows): Page['names'] | null {
  const fields = joinedFields(joined, WIDTH)
  if (!fields) return null
  const rows: ValueRow[] = new Array(fields.length / WIDTH)
  for (let r = 0, f = 0; r < rows.length; r++, f += WIDTH) {
    const data = fields[f + 3]!
    const priority = fields[f + 4]!
    rows[r] = {
      name: fields[f]!,
      type: fields[f + 1]!,
      content: fields[f + 2]!,
      data: data === '' ? null : data,
      priority: priority === '' ? null : Number(priority),
      ttl: Number(fields[f + 5]),
      proxied: Number(fields[f + 6]),
    }
  }
  const names = namesOf(rows)
  return new Set(names.map((n) => n.name)).size === names.length ? names : null
}

/**
 * A served zone currently holding `name` (zone names can be reused after a delete; pending zones
 * of that name own no keys).
 */
export async function liveZoneNamed(db: D1Database, name: string): Promise<string | null> {
  const row = await db.prepare(SQL.liveZone).bind(name).first<{ id: string }>()
  return row?.id ?? null
}

/**
 * Served zones strictly below `zone` (any account; zones never activated are not served): readers need them to know which longer
 * suffixes of a name are zones of their own. A range on the zones' reversed names (`rev.` …
 * `rev/`); run only when a zone's metadata is rebuilt, which record changes below the apex never do.
 */
export async function readSubzones(db: D1Database, zone: string): Promise<string[]> {
  const { results } = await subzonesStatement(db, zone).all<{ name: string }>()
  return results.map((r) => r.name)
}

function subzonesStatement(db: D1Database, zone: string): D1PreparedStatement {
  const rev = reverseName(zone)
  return db.prepare(SQL.subzones).bind(`${rev}.`, `${rev}/`)
}

/** Ids of the hosted zones among `names` (a zone's ancestors: their subzones list it). */
export async function zonesNamed(db: D1Database, names: string[]): Promise<string[]> {
  if (names.length === 0) return []
  const { results } = await db
    .prepare(
      "SELECT id FROM zones WHERE name IN (SELECT value FROM json_each(?1)) AND status != 'deleted' AND activated_on IS NOT NULL"
    )
    .bind(JSON.stringify(names))
    .all<{ id: string }>()
  return results.map((r) => r.id)
}
