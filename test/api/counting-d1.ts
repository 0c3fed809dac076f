/**
 * A D1 binding that counts its round trips to the database: each `first`, `all`, `run` or `raw` of
 * a statement, and each `batch` (however many statements it carries); and the rows its batches
 * read.
 */
export interface CountingD1 {
  db: D1Database
  /** Round trips so far. */
  readonly trips: number
  /** Rows read by the batches so far (D1's `rows_read`). */
  readonly batchRowsRead: number
}

export function countingD1(real: D1Database): CountingD1 {
  let trips = 0
  let batchRowsRead = 0
  const unwrapped = new WeakMap<object, D1PreparedStatement>()
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown
        if (typeof value !== 'function') return value
        if (prop === 'bind') return (...args: unknown[]) => wrap(target.bind(...args))
        if (prop === 'first' || prop === 'all' || prop === 'run' || prop === 'raw') trips++
        return (value as (...a: unknown[]) => unknown).bind(target)
      },
    })
    unwrapped.set(proxy, stmt)
    return proxy
  }
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => wrap(target.prepare(sql))
      if (prop === 'batch')
        return (statements: D1PreparedStatement[]) => {
          trips++
          return target.batch(statements.map((s) => unwrapped.get(s) ?? s)).then((results) => {
            for (const r of results) batchRowsRead += r.meta?.rows_read ?? 0
            return results
          })
        }
      const value = Reflect.get(target, prop, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return {
    db,
    get trips() {
      return trips
    },
    get batchRowsRead() {
      return batchRowsRead
    },
  }
}
