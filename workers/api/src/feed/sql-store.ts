/**
 * @module The feed primary's `FeedStore` in Durable Object SQLite. Entries are numbered without
 * gaps and trimmed from the oldest, so their count is the log's `seq − floor`; zone rows are read
 * by name, by sequence (polls, tails) and by `since` (a resync's index deltas).
 */
import type { FeedAppend, FeedMeta, FeedStore, StoredEntry, ZoneRow } from '@edgedns/zone-feed'

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS feed_meta (k INTEGER PRIMARY KEY CHECK (k = 1), v TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS feed_entries (seq INTEGER PRIMARY KEY, zone TEXT NOT NULL,
     id TEXT NOT NULL, n INTEGER NOT NULL, op TEXT NOT NULL, at INTEGER NOT NULL)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS feed_entries_key ON feed_entries (zone, id, op, n)`,
  `CREATE INDEX IF NOT EXISTS feed_entries_at ON feed_entries (at)`,
  `CREATE TABLE IF NOT EXISTS feed_zones (zone TEXT PRIMARY KEY, id TEXT NOT NULL,
     n INTEGER NOT NULL, op TEXT NOT NULL, seq INTEGER NOT NULL, since INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS feed_zones_seq ON feed_zones (seq)`,
  `CREATE INDEX IF NOT EXISTS feed_zones_since ON feed_zones (since)`,
  `CREATE TABLE IF NOT EXISTS feed_seen (zone TEXT PRIMARY KEY, session INTEGER NOT NULL)`,
]

type Row = Record<string, SqlStorageValue>

const ZONE_COLUMNS = 'zone, id, n, op, seq, since'

function zoneRow(r: Row): ZoneRow {
  return {
    zone: r.zone as string,
    id: r.id as string,
    n: r.n as number,
    op: r.op as ZoneRow['op'],
    seq: r.seq as number,
    since: r.since as number,
  }
}

export class SqlFeedStore implements FeedStore {
  readonly #storage: DurableObjectStorage
  readonly #sql: SqlStorage

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage
    this.#sql = storage.sql
    for (const s of SCHEMA) this.#sql.exec(s)
  }

  transaction<T>(fn: () => T): T {
    return this.#storage.transactionSync(fn)
  }

  readMeta(): FeedMeta | null {
    const row = this.#sql.exec<{ v: string }>('SELECT v FROM feed_meta WHERE k = 1').toArray()[0]
    return row === undefined ? null : (JSON.parse(row.v) as FeedMeta)
  }

  writeMeta(meta: FeedMeta): void {
    this.#sql.exec(
      'INSERT INTO feed_meta (k, v) VALUES (1, ?1) ON CONFLICT (k) DO UPDATE SET v = ?1',
      JSON.stringify(meta)
    )
  }

  hasEntry(e: FeedAppend): boolean {
    return (
      this.#sql
        .exec(
          'SELECT 1 FROM feed_entries WHERE zone = ?1 AND id = ?2 AND op = ?3 AND n = ?4',
          e.zone,
          e.id,
          e.op,
          e.n
        )
        .toArray().length > 0
    )
  }

  hasDelete(zone: string, id: string): boolean {
    return (
      this.#sql
        .exec(
          "SELECT 1 FROM feed_entries WHERE zone = ?1 AND id = ?2 AND op = 'delete' LIMIT 1",
          zone,
          id
        )
        .toArray().length > 0
    )
  }

  insertEntry(e: StoredEntry): void {
    this.#sql.exec(
      'INSERT INTO feed_entries (seq, zone, id, n, op, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)',
      e.seq,
      e.zone,
      e.id,
      e.n,
      e.op,
      e.at
    )
  }

  seqBefore(at: number): number {
    const row = this.#sql
      .exec<{ seq: number | null }>('SELECT max(seq) AS seq FROM feed_entries WHERE at < ?1', at)
      .toArray()[0]
    return row?.seq ?? 0
  }

  trimThrough(seq: number): void {
    this.#sql.exec('DELETE FROM feed_entries WHERE seq <= ?1', seq)
    this.#sql.exec("DELETE FROM feed_zones WHERE op = 'delete' AND seq <= ?1", seq)
  }

  zone(name: string): ZoneRow | null {
    const row = this.#sql
      .exec<Row>(`SELECT ${ZONE_COLUMNS} FROM feed_zones WHERE zone = ?1`, name)
      .toArray()[0]
    return row === undefined ? null : zoneRow(row)
  }

  putZone(r: ZoneRow): void {
    this.#sql.exec(
      `INSERT INTO feed_zones (${ZONE_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (zone) DO UPDATE SET id = ?2, n = ?3, op = ?4, seq = ?5, since = ?6`,
      r.zone,
      r.id,
      r.n,
      r.op,
      r.seq,
      r.since
    )
  }

  zonesAfter(after: number, limit: number): ZoneRow[] {
    return this.#sql
      .exec<Row>(
        `SELECT ${ZONE_COLUMNS} FROM feed_zones WHERE seq > ?1 ORDER BY seq LIMIT ?2`,
        after,
        limit
      )
      .toArray()
      .map(zoneRow)
  }

  resyncZones(windowSeq: number, indexSeq: number, limit: number): ZoneRow[] {
    // Two index ranges (recent rows by seq, older deltas by since), merged: never a scan of every zone.
    const recent = this.#sql
      .exec<Row>(
        `SELECT ${ZONE_COLUMNS} FROM feed_zones WHERE seq > ?1 ORDER BY seq DESC LIMIT ?2`,
        windowSeq,
        limit
      )
      .toArray()
    const deltas = this.#sql
      .exec<Row>(
        `SELECT ${ZONE_COLUMNS} FROM feed_zones WHERE since > ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT ?3`,
        indexSeq,
        windowSeq,
        limit
      )
      .toArray()
    return [...recent, ...deltas].slice(0, limit).map(zoneRow).reverse()
  }

  *servedNames(): Iterable<string> {
    for (const r of this.#sql.exec<{ zone: string }>(
      "SELECT zone FROM feed_zones WHERE op = 'head'"
    ))
      yield r.zone
  }

  markSeen(zones: string[], session: number): void {
    if (zones.length === 0) return
    this.#sql.exec(
      `INSERT INTO feed_seen (zone, session) SELECT value, ?2 FROM json_each(?1) WHERE true
       ON CONFLICT (zone) DO UPDATE SET session = ?2`,
      JSON.stringify(zones),
      session
    )
  }

  unseenServed(session: number, after: string, limit: number): ZoneRow[] {
    return this.#sql
      .exec<Row>(
        `SELECT z.zone, z.id, z.n, z.op, z.seq, z.since FROM feed_zones z
          LEFT JOIN feed_seen s ON s.zone = z.zone AND s.session = ?1
          WHERE z.op = 'head' AND z.zone > ?2 AND s.zone IS NULL ORDER BY z.zone LIMIT ?3`,
        session,
        after,
        limit
      )
      .toArray()
      .map(zoneRow)
  }

  clearSeen(): void {
    this.#sql.exec('DELETE FROM feed_seen')
  }
}
