/** @module The D1 queries of one move step, counted against its budget. */

/** A row as D1 returns it. */
export type Row = Record<string, unknown>

/** Counts the D1 queries of one step. */
export class Queries {
  n = 0
  constructor(readonly budget: number) {}
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
