/**
 * @module Row types for raw SQL, derived from the drizzle schema so that a table's shape has one
 * home: `schema.ts`.
 */
import { getTableColumns, type InferSelectModel, type Table } from 'drizzle-orm'

type Columns<T extends Table> = T['_']['columns']

/**
 * A row of `T` as raw SQL (`db.prepare(...).all()`, `json_each`) returns it: the SQL column names
 * (snake_case) and the values the driver holds (a boolean column is 0 or 1, JSON is text).
 */
export type RawRow<T extends Table> = {
  [K in keyof Columns<T> as Columns<T>[K]['_']['name']]:
    Columns<T>[K]['_']['driverParam'] | (Columns<T>[K]['_']['notNull'] extends true ? never : null)
}

/** The SQL column names of `table`, in the schema's order. */
export function columnNames<T extends Table>(table: T): (keyof RawRow<T> & string)[] {
  return Object.values(getTableColumns(table)).map((c) => c.name) as (keyof RawRow<T> & string)[]
}

/**
 * A row raw SQL read from `table` (every column, `SELECT *`) as drizzle's select returns it: the
 * schema's property names, each value mapped from the driver's (booleans, JSON, timestamps).
 */
export function fromRawRow<T extends Table>(
  table: T,
  row: Record<string, unknown>
): InferSelectModel<T> {
  const out: Record<string, unknown> = {}
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = row[column.name]
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
  }
  return out as InferSelectModel<T>
}
