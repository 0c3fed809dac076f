/**
 * @module The builder's mirror of its zone's nodes (DO SQLite). One row per name that
 * has a KV node (records or empty non-terminal): the name's 32-bit hash and its encoded node.
 * A bucket value is assembled from the rows in the bucket's hash range, so a per-record pass
 * rebuilds a whole bucket state-based without reading the rest of the bucket from D1 or KV.
 * Every row is derived from D1: per-record passes recompute the touched names, a full build
 * refills the table from scratch (`nodes_next`, swapped in when complete). `nodes_next` is filled
 * without any index and indexed once, sorted, at the swap: inserting a million names into two
 * random-order B-trees thrashes SQLite's page cache; appending them and building the indexes
 * afterwards does not.
 */
import {
  bucketKey,
  EMPTY_BUCKET,
  encodeBucketText,
  nameHash,
  type BucketKeyVersion,
} from '@edgedns/kv-layout'
import { jsonChunks } from '../db/json-chunks.ts'
import type { KeyOp } from './writer.ts'

const SPAN = 0x100000000

export class NodeMirror {
  constructor(private readonly sql: SqlStorage) {
    this.sql.exec(
      `CREATE TABLE IF NOT EXISTS nodes (name TEXT PRIMARY KEY, h INTEGER NOT NULL, value TEXT NOT NULL)`
    )
    this.indexHashes('nodes')
    this.sql.exec(
      `CREATE TABLE IF NOT EXISTS nodes_next (name TEXT NOT NULL, h INTEGER NOT NULL, value TEXT NOT NULL)`
    )
    this.sql.exec('CREATE TABLE IF NOT EXISTS dirty_buckets (i INTEGER PRIMARY KEY)')
    // The overlay: names changed since their bucket was last written (head slots carry them).
    // `flushed` = their bucket has been written since; the next head drops them and names the bucket.
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS overlay (name TEXT PRIMARY KEY, b INTEGER NOT NULL, flushed INTEGER NOT NULL DEFAULT 0)'
    )
  }

  /** Names a pass changed, with their bucket: they shadow the bucket until it is rewritten. */
  addOverlay(entries: readonly (readonly [string, number])[]): void {
    // In chunks under the 2 MB string limit Durable Object SQLite shares with D1 (a pass may hold 20,000 long names).
    for (const chunk of jsonChunks(entries))
      this.sql.exec(
        `INSERT INTO overlay (name, b, flushed) SELECT value ->> 0, value ->> 1, 0 FROM json_each(?1) WHERE true
       ON CONFLICT (name) DO UPDATE SET b = excluded.b, flushed = 0`,
        chunk
      )
  }

  /** Overlay names whose buckets were just written now match their buckets. */
  markFlushed(buckets: readonly number[]): void {
    if (buckets.length > 0)
      this.sql.exec(
        'UPDATE overlay SET flushed = 1 WHERE b IN (SELECT value FROM json_each(?1))',
        JSON.stringify(buckets)
      )
  }

  /** (name, encoded node or null) of every overlay name not yet in its bucket. */
  overlayEntries(): [string, string | null][] {
    return this.sql
      .exec<{ name: string; value: string | null }>(
        'SELECT o.name, n.value FROM overlay o LEFT JOIN nodes n ON n.name = o.name WHERE o.flushed = 0 ORDER BY o.name'
      )
      .toArray()
      .map((r) => [r.name, r.value])
  }

  overlayCount(flushed?: 0 | 1): number {
    const where = flushed === undefined ? '' : ` WHERE flushed = ${flushed}`
    return this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM overlay${where}`).one().n
  }

  /** After a head without them is written: names already in their buckets leave the overlay. */
  dropFlushed(): void {
    this.sql.exec('DELETE FROM overlay WHERE flushed = 1')
  }

  clearOverlay(): void {
    this.sql.exec('DELETE FROM overlay')
  }

  /** Buckets whose mirror rows changed and whose KV value is not written yet. */
  markDirty(indexes: Iterable<number>): void {
    const list = [...indexes]
    if (list.length > 0)
      this.sql.exec(
        'INSERT OR IGNORE INTO dirty_buckets (i) SELECT value FROM json_each(?1)',
        JSON.stringify(list)
      )
  }

  /** Up to `limit` dirty buckets, lowest index first. */
  dirty(limit: number): number[] {
    return this.sql
      .exec<{ i: number }>('SELECT i FROM dirty_buckets ORDER BY i LIMIT ?1', limit)
      .toArray()
      .map((r) => r.i)
  }

  markClean(indexes: readonly number[]): void {
    if (indexes.length > 0)
      this.sql.exec(
        'DELETE FROM dirty_buckets WHERE i IN (SELECT value FROM json_each(?1))',
        JSON.stringify(indexes)
      )
  }

  dirtyCount(): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM dirty_buckets').one().n
  }

  /** A full build or purge writes (or deletes) every bucket: nothing is left dirty. */
  clearDirty(): void {
    this.sql.exec('DELETE FROM dirty_buckets')
  }

  /**
   * The hash index of a table, unless it has one. Index names do not follow the table: a swap
   * renames `nodes_next` (indexes and all) to `nodes`, so each new index takes a name of its own.
   */
  private indexHashes(table: 'nodes' | 'nodes_next'): void {
    const hashed = this.sql
      .exec(
        `SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND sql LIKE '%(h)'`,
        table
      )
      .toArray()
    if (hashed.length === 0) this.sql.exec(`CREATE INDEX ${table}_h_${suffix()} ON ${table} (h)`)
  }

  /** Encoded node per name (null: the name has no node any more), in two statements: upserts, then deletes. */
  setMany(entries: readonly (readonly [string, string | null])[]): void {
    const upserts: [string, number, string][] = []
    const deletes: string[] = []
    for (const [name, value] of entries) {
      if (value === null) deletes.push(name)
      else upserts.push([name, nameHash(name), value])
    }
    // Chunked under the 2 MB string limit: encoded nodes of a few names can already be large.
    for (const chunk of jsonChunks(upserts))
      this.sql.exec(
        `INSERT INTO nodes (name, h, value) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?1) WHERE true
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        chunk
      )
    for (const chunk of jsonChunks(deletes))
      this.sql.exec('DELETE FROM nodes WHERE name IN (SELECT value FROM json_each(?1))', chunk)
  }

  /** (name, encoded node) pairs of bucket `index` of `buckets`. */
  bucket(buckets: number, index: number): [string, string][] {
    const lo = (index * SPAN) / buckets
    const hi = ((index + 1) * SPAN) / buckets
    const rows = this.sql.exec<{ name: string; value: string }>(
      'SELECT name, value FROM nodes WHERE h >= ?1 AND h < ?2',
      lo,
      hi
    )
    return [...rows].map((r) => [r.name, r.value])
  }

  /**
   * The KV operation that writes bucket `index` as the mirror holds it, at `version`. An empty
   * bucket is written as such, never left out: readers take a missing key for "not visible here
   * yet", not "no names".
   */
  bucketOp(zone: string, buckets: number, index: number, version: BucketKeyVersion): KeyOp {
    const entries = this.bucket(buckets, index)
    return {
      key: bucketKey(zone, buckets, index, version),
      value: entries.length === 0 ? EMPTY_BUCKET : encodeBucketText(zone, entries),
    }
  }

  /** Appends names to the full build's table: one statement per call, not one per name. */
  appendNext(entries: readonly (readonly [string, string])[]): void {
    if (entries.length === 0) return
    const rows = entries.map(([name, value]) => [name, nameHash(name), value])
    this.sql.exec(
      `INSERT INTO nodes_next (name, h, value) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?1)`,
      JSON.stringify(rows)
    )
  }

  count(table: 'nodes' | 'nodes_next' = 'nodes'): number {
    return this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).one().n
  }

  /** Start of a full build: an empty table without indexes to append to. */
  resetNext(): void {
    this.sql.exec('DROP TABLE IF EXISTS nodes_next')
    this.sql.exec(
      `CREATE TABLE nodes_next (name TEXT NOT NULL, h INTEGER NOT NULL, value TEXT NOT NULL)`
    )
  }

  /**
   * End of a full build's mirror phase: indexes the new table (a sort each, not a million random
   * inserts) and puts it in place of the old one (a rename, not a copy). A name appended twice —
   * a full build's page replayed after an interruption — keeps its last row.
   */
  swapNext(): void {
    const unique = `CREATE UNIQUE INDEX nodes_name_${suffix()} ON nodes_next (name)`
    try {
      this.sql.exec(unique)
    } catch {
      this.sql.exec(
        'DELETE FROM nodes_next WHERE rowid NOT IN (SELECT max(rowid) FROM nodes_next GROUP BY name)'
      )
      this.sql.exec(unique)
    }
    this.indexHashes('nodes_next')
    this.sql.exec('DROP TABLE nodes')
    this.sql.exec('ALTER TABLE nodes_next RENAME TO nodes')
    this.resetNext()
  }

  clear(): void {
    this.sql.exec('DELETE FROM nodes')
    this.sql.exec('DELETE FROM nodes_next')
    this.clearDirty()
    this.clearOverlay()
  }
}

function suffix(): string {
  return crypto.randomUUID().slice(0, 8)
}
