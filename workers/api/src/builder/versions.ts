/**
 * @module Bucket versions (DO SQLite): which version of each bucket of the live count the last
 * head names, the bucket writes made since that head, and the queue of superseded keys waiting
 * out their grace period.
 *
 * A bucket key (`bucketKey(zone, B, i, v)`) is written with content at most once: a flush writes
 * version `next` (the counter the next head will carry) and records the write here first, so a
 * bucket written since the last head is not written again before the next one (its later changes wait
 * for the version after it). The head then names every completed write; a write whose outcome is
 * unknown (the step failed during it) is named by no head and goes to the retirement queue.
 * Kept in SQLite rather than in the state object: a 4,096-bucket zone can name thousands of
 * versions, and the state object is saved many times per step.
 */
import { bucketKey, type BucketVersions } from '@edgedns/kv-layout'

export class VersionStore {
  constructor(private readonly sql: SqlStorage) {
    // Buckets of the live count whose named version is not the base (a head's `bv.changed`).
    sql.exec(
      'CREATE TABLE IF NOT EXISTS bucket_versions (i INTEGER PRIMARY KEY, v INTEGER NOT NULL)'
    )
    // Bucket writes since the last head: v = the version written, done = the put succeeded.
    sql.exec(
      'CREATE TABLE IF NOT EXISTS bucket_writes (i INTEGER PRIMARY KEY, v INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0)'
    )
    // Keys no head reaches any more, deleted once `due`; b = their bucket count.
    sql.exec(
      'CREATE TABLE IF NOT EXISTS retired (key TEXT PRIMARY KEY, due INTEGER NOT NULL, b INTEGER NOT NULL)'
    )
    sql.exec('CREATE INDEX IF NOT EXISTS retired_due ON retired (due)')
    // What the versions table the last head named holds (state.versionsTable).
    sql.exec(
      'CREATE TABLE IF NOT EXISTS versions_table (i INTEGER PRIMARY KEY, v INTEGER NOT NULL)'
    )
  }

  #table: Map<number, number> | null = null

  /**
   * A table's (i, v) rows as a map, read as one JSON value: a 4,096-bucket zone has thousands of
   * rows, and stepping a cursor through them costs far more than one aggregate.
   */
  #pairs(table: 'bucket_versions' | 'versions_table'): Map<number, number> {
    const { flat } = this.sql
      .exec<{ flat: string }>(`SELECT json_group_array(json_array(i, v)) AS flat FROM ${table}`)
      .one()
    return new Map(JSON.parse(flat) as [number, number][])
  }

  /** The versions in the table the last head named (empty when it names none). */
  table(): ReadonlyMap<number, number> {
    this.#table ??= this.#pairs('versions_table')
    return this.#table
  }

  /** A head named a new versions table holding `changed` (none: `changed` empty). */
  setTable(changed: ReadonlyMap<number, number>): void {
    this.sql.exec('DELETE FROM versions_table')
    const rows = [...changed]
    for (let k = 0; k < rows.length; k += 500)
      this.sql.exec(
        `INSERT INTO versions_table (i, v) SELECT value ->> 0, value ->> 1 FROM json_each(?1)`,
        JSON.stringify(rows.slice(k, k + 500))
      )
    this.#table = new Map(changed)
  }

  /** The versions the last head named (`base` for every bucket not listed). */
  named(base: number): BucketVersions {
    return { base, changed: this.#pairs('bucket_versions') }
  }

  /** Buckets written (or being written) since the last head: not written again before the next one. */
  written(): Set<number> {
    return new Set(
      this.sql
        .exec<{ i: number }>('SELECT i FROM bucket_writes')
        .toArray()
        .map((r) => r.i)
    )
  }

  /** Before the puts: these buckets are being written at `v`. */
  begin(indexes: readonly number[], v: number): void {
    if (indexes.length > 0)
      this.sql.exec(
        `INSERT INTO bucket_writes (i, v, done) SELECT value, ?2, 0 FROM json_each(?1) WHERE true
         ON CONFLICT (i) DO UPDATE SET v = excluded.v, done = 0`,
        JSON.stringify(indexes),
        v
      )
  }

  /** After the puts succeeded. */
  complete(indexes: readonly number[]): void {
    if (indexes.length > 0)
      this.sql.exec(
        'UPDATE bucket_writes SET done = 1 WHERE i IN (SELECT value FROM json_each(?1))',
        JSON.stringify(indexes)
      )
  }

  /** Completed writes since the last head: bucket → version. */
  completed(): Map<number, number> {
    return new Map(
      this.sql
        .exec<{ i: number; v: number }>('SELECT i, v FROM bucket_writes WHERE done = 1 ORDER BY i')
        .toArray()
        .map((r) => [r.i, r.v])
    )
  }

  /**
   * A head naming `written` (the completed writes) is in KV: they become the named versions, the
   * versions they replace and every write of unknown outcome are queued for deletion at `due`.
   * Call in the same synchronous stretch as the state save that records the head.
   */
  headWritten(zone: string, id: string, buckets: number, base: number | null, due: number): void {
    const old = this.named(base ?? 0)
    const superseded: string[] = []
    for (const [i] of this.completed()) superseded.push(keyAt(zone, id, buckets, i, old, base))
    for (const r of this.sql.exec<{ i: number; v: number }>(
      'SELECT i, v FROM bucket_writes WHERE done = 0'
    ))
      superseded.push(bucketKey(zone, buckets, r.i, { id, v: r.v }))
    this.sql.exec(
      `INSERT INTO bucket_versions (i, v) SELECT i, v FROM bucket_writes WHERE done = 1 AND true
       ON CONFLICT (i) DO UPDATE SET v = excluded.v`
    )
    this.sql.exec('DELETE FROM bucket_writes')
    this.retire(superseded, due, buckets)
  }

  /**
   * A full build switched to count `buckets`, every bucket at version `base`: the versions the
   * previous head named (of `previous` buckets, unversioned when `previousBase` is null) are queued.
   */
  switched(
    zone: string,
    id: string,
    previous: number | undefined,
    previousBase: number | null,
    due: number
  ): void {
    if (previous !== undefined) {
      const old = this.named(previousBase ?? 0)
      const keys = Array.from({ length: previous }, (_, i) =>
        keyAt(zone, id, previous, i, old, previousBase)
      )
      this.retire(keys, due, previous)
    }
    this.sql.exec('DELETE FROM bucket_versions')
    this.sql.exec('DELETE FROM bucket_writes')
  }

  /** Queues keys for deletion at `due` (a key already queued keeps its earlier time). */
  retire(keys: readonly string[], due: number, buckets: number): void {
    for (let k = 0; k < keys.length; k += 500)
      this.sql.exec(
        'INSERT OR IGNORE INTO retired (key, due, b) SELECT value, ?2, ?3 FROM json_each(?1)',
        JSON.stringify(keys.slice(k, k + 500)),
        due,
        buckets
      )
  }

  /** Up to `limit` queued keys due at `now` (of count `buckets` only, when given), earliest first. */
  due(now: number, limit: number, buckets?: number): string[] {
    if (limit <= 0) return []
    const rows =
      buckets === undefined
        ? this.sql.exec<{ key: string }>(
            'SELECT key FROM retired WHERE due <= ?1 ORDER BY due LIMIT ?2',
            now,
            limit
          )
        : this.sql.exec<{ key: string }>(
            'SELECT key FROM retired WHERE due <= ?1 AND b = ?3 ORDER BY due LIMIT ?2',
            now,
            limit,
            buckets
          )
    return rows.toArray().map((r) => r.key)
  }

  /** Keys deleted from KV leave the queue. */
  deleted(keys: readonly string[]): void {
    for (let k = 0; k < keys.length; k += 500)
      this.sql.exec(
        'DELETE FROM retired WHERE key IN (SELECT value FROM json_each(?1))',
        JSON.stringify(keys.slice(k, k + 500))
      )
  }

  /** Which of `keys` wait in the queue. */
  queued(keys: readonly string[]): Set<string> {
    const out = new Set<string>()
    for (let k = 0; k < keys.length; k += 500)
      for (const r of this.sql.exec<{ key: string }>(
        'SELECT key FROM retired WHERE key IN (SELECT value FROM json_each(?1))',
        JSON.stringify(keys.slice(k, k + 500))
      ))
        out.add(r.key)
    return out
  }

  /** Queued keys of count `buckets`. */
  pending(buckets: number): number {
    return this.sql
      .exec<{ n: number }>('SELECT count(*) AS n FROM retired WHERE b = ?1', buckets)
      .one().n
  }

  /** Earliest due time in the queue (null when empty). */
  nextDue(): number | null {
    return this.sql.exec<{ t: number | null }>('SELECT min(due) AS t FROM retired').one().t
  }

  size(): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM retired').one().n
  }

  /** A purge deleted every key of the zone. */
  clear(): void {
    this.sql.exec('DELETE FROM bucket_versions')
    this.sql.exec('DELETE FROM bucket_writes')
    this.sql.exec('DELETE FROM retired')
    this.setTable(new Map())
  }
}

/** The key a head with these versions reads for bucket i (unversioned when `base` is null). */
function keyAt(
  zone: string,
  id: string,
  buckets: number,
  i: number,
  versions: BucketVersions,
  base: number | null
): string {
  return base === null
    ? bucketKey(zone, buckets, i)
    : bucketKey(zone, buckets, i, { id, v: versions.changed.get(i) ?? base })
}
