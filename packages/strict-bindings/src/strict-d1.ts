/**
 * @module Strict D1: statements, bound parameters, LIKE patterns and result rows checked against
 * D1's production limits.
 */
import { PRODUCTION_LIMITS } from '@edgedns/platform-limits'
import { breach, byteLength, bytesIfOver, maxBytes, valueBytes } from './limits.ts'
import { parseSql, type LikeOperand, type ParsedSql } from './sql-patterns.ts'

/** The start of a statement's text, for error messages. */
const excerpt = (sql: string): string => {
  const s = sql.replace(/\s+/g, ' ').trim()
  return s.length > 120 ? `${s.slice(0, 120)}…` : s
}

/** Parsed statements by text: the same few hundred statements are prepared over and over. */
const parsedCache = new Map<string, ParsedSql>()

function checkStatementText(sql: string): ParsedSql {
  const bytes = sql.length * 3 <= PRODUCTION_LIMITS.d1StatementBytes ? 0 : byteLength(sql)
  if (bytes > PRODUCTION_LIMITS.d1StatementBytes) {
    breach(
      'D1 statement length',
      `${bytes} bytes > ${PRODUCTION_LIMITS.d1StatementBytes} in ${excerpt(sql)}`
    )
  }
  let parsed = parsedCache.get(sql)
  if (!parsed) {
    parsed = parseSql(sql)
    if (parsedCache.size >= 1000) parsedCache.clear()
    parsedCache.set(sql, parsed)
  }
  for (const p of parsed.patterns) {
    if (p.parts.every((x) => 'literal' in x)) checkPattern(p, [], sql)
  }
  return parsed
}

function checkPattern(p: LikeOperand, params: unknown[], sql: string): void {
  let bytes = 0
  for (const part of p.parts) {
    if ('literal' in part) bytes += byteLength(part.literal)
    else {
      const v = params[part.param]
      if (v === null || v === undefined) return
      bytes += byteLength(String(v))
    }
  }
  if (bytes > PRODUCTION_LIMITS.d1LikePatternBytes) {
    breach(
      'D1 LIKE/GLOB pattern length',
      `${bytes} bytes > ${PRODUCTION_LIMITS.d1LikePatternBytes} in ${excerpt(sql)}`
    )
  }
}

function checkParams(sql: string, parsed: ParsedSql, params: unknown[]): void {
  if (params.length > PRODUCTION_LIMITS.d1BoundParameters) {
    breach(
      'D1 bound parameters',
      `${params.length} > ${PRODUCTION_LIMITS.d1BoundParameters} in ${excerpt(sql)}`
    )
  }
  params.forEach((v, i) => {
    const bytes = bytesIfOver(v, PRODUCTION_LIMITS.d1ValueBytes)
    if (bytes > PRODUCTION_LIMITS.d1ValueBytes) {
      breach(
        'D1 string or BLOB size',
        `parameter ${i + 1} is ${bytes} bytes > ${PRODUCTION_LIMITS.d1ValueBytes} in ${excerpt(sql)}`
      )
    }
  })
  for (const p of parsed.patterns)
    if (p.parts.some((x) => 'param' in x)) checkPattern(p, params, sql)
}

function checkRows(sql: string, rows: unknown[]): void {
  for (const row of rows) {
    if (row === null || typeof row !== 'object') continue
    const values = Object.values(row)
    if (values.reduce((n: number, v) => n + maxBytes(v), 0) <= PRODUCTION_LIMITS.d1ValueBytes)
      continue
    let total = 0
    for (const v of values) {
      const bytes = valueBytes(v)
      if (bytes > PRODUCTION_LIMITS.d1ValueBytes) {
        breach(
          'D1 string or BLOB size',
          `a result value is ${bytes} bytes > ${PRODUCTION_LIMITS.d1ValueBytes} in ${excerpt(sql)}`
        )
      }
      total += bytes
    }
    if (total > PRODUCTION_LIMITS.d1ValueBytes) {
      breach(
        'D1 row size',
        `a result row is ${total} bytes > ${PRODUCTION_LIMITS.d1ValueBytes} in ${excerpt(sql)}`
      )
    }
  }
}

const INNER = Symbol('inner statement')

class StrictStatement implements D1PreparedStatement {
  [INNER]: D1PreparedStatement
  readonly sql: string
  readonly parsed: ParsedSql
  constructor(inner: D1PreparedStatement, sql: string, parsed: ParsedSql) {
    this[INNER] = inner
    this.sql = sql
    this.parsed = parsed
  }

  bind(...values: unknown[]): D1PreparedStatement {
    checkParams(this.sql, this.parsed, values)
    return new StrictStatement(this[INNER].bind(...values), this.sql, this.parsed)
  }

  async first<T = unknown>(colName?: string): Promise<T | null> {
    const row =
      colName === undefined ? await this[INNER].first<T>() : await this[INNER].first<T>(colName)
    if (colName === undefined) checkRows(this.sql, [row])
    else checkRows(this.sql, [{ v: row }])
    return row
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const r = await this[INNER].run<T>()
    checkRows(this.sql, r.results ?? [])
    return r
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const r = await this[INNER].all<T>()
    checkRows(this.sql, r.results ?? [])
    return r
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>
  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    const rows = (await this[INNER].raw<T>(options as { columnNames?: false })) as unknown[]
    checkRows(
      this.sql,
      rows.map((r) => (Array.isArray(r) ? { ...r } : r))
    )
    return rows as T[]
  }
}

function unwrap(s: D1PreparedStatement): D1PreparedStatement {
  return s instanceof StrictStatement ? s[INNER] : s
}

async function strictBatch<T>(
  run: (s: D1PreparedStatement[]) => Promise<D1Result<T>[]>,
  stmts: D1PreparedStatement[]
): Promise<D1Result<T>[]> {
  const results = await run(stmts.map(unwrap))
  results.forEach((r, i) =>
    checkRows((stmts[i] as Partial<StrictStatement>).sql ?? '', r.results ?? [])
  )
  return results
}

function prepareStrict(
  prepare: (sql: string) => D1PreparedStatement,
  sql: string
): D1PreparedStatement {
  const parsed = checkStatementText(sql)
  return new StrictStatement(prepare(sql), sql, parsed)
}

/** D1 with production limits on statement text, bound values, LIKE patterns and result rows. */
export function strictD1(db: D1Database): D1Database {
  const wrapped: D1Database = {
    prepare: (sql) => prepareStrict((q) => db.prepare(q), sql),
    batch: (stmts) => strictBatch((s) => db.batch(s), stmts),
    exec: (sql) => {
      checkStatementText(sql)
      return db.exec(sql)
    },
    dump: () => db.dump(),
    withSession: (constraint) => {
      const session = db.withSession(constraint)
      return {
        prepare: (sql: string) => prepareStrict((q) => session.prepare(q), sql),
        batch: (stmts: D1PreparedStatement[]) => strictBatch((s) => session.batch(s), stmts),
        getBookmark: () => session.getBookmark(),
      } as D1DatabaseSession
    },
  } as D1Database
  return wrapped
}
