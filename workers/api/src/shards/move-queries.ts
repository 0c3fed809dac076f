/** @module The D1 queries of one move step, counted against its budget. */

/** A row as D1 returns it. */
export type Row = Record<string, unknown>

/** Counts the D1 queries of one step. */
export class Queries {
  n = 0
  readonly #columns = new Map<D1Database, Map<string, Set<string>>>()
  constructor(readonly budget: number) {}

  /**
   * The columns `table` has in `db`, asked once a step. A move writes only these: shards are
   * migrated one by one, so a destination may lack a column the source still has (dropped by a
   * migration that reached the destination first).
   */
  async columns(db: D1Database, table: string): Promise<Set<string>> {
    let tables = this.#columns.get(db)
    if (!tables) this.#columns.set(db, (tables = new Map()))
    let columns = tables.get(table)
    if (!columns) {
      const info = await this.all<{ name: string }>(db, `PRAGMA table_info(${table})`)
      columns = new Set(info.map((c) => c.name))
      tables.set(table, columns)
    }
    return columns
  }
  get spent(): boolean {
    return this.n >= this.budget
  }
  async all<T = Row>(db: D1Database, sql: string, ...binds: unknown[]): Promise<T[]> {
    this.n++
    return (
      await db
        .prepare(sql)
        .bind(...binds)
        .all<T>()
    ).results
  }
  async run(db: D1Database, sql: string, ...binds: unknown[]): Promise<D1Result> {
    this.n++
    return db
      .prepare(sql)
      .bind(...binds)
      .run()
  }
}
