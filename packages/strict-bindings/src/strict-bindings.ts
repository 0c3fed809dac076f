/**
 * @module Strict mode of the D1 and KV bindings: wrappers that throw when a call would breach a
 * production limit that local Miniflare does not enforce (or enforces more loosely). Applied by the
 * API worker and the ZoneBuilder Durable Object when the `STRICT_LIMITS` var is `1`; the test suite
 * runs with it on, so a breach fails the test that caused it instead of surfacing in production.
 *
 * Per-invocation counters (KV operations) are scoped with `inInvocation`, which the entry points
 * wrap around each request, cron event, Durable Object RPC call and alarm. Every breach is also
 * recorded (`takeBreaches`), so a breach swallowed by a retry loop still fails the test.
 *
 * With `KV_MODEL=production` (which turns the strict bindings on too) the KV wrapper is also one
 * production KV location: reads go through an edge cache of its own with the rules of
 * `@edgedns/kv-layout/edge-model` (a value or a miss is kept for the read's `cacheTtl`), writes
 * go to the local store at once. Each wrapper instance is one location: the DoH worker keeps one
 * per isolate, the API worker one per env object.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { EdgeCache, type KvGetOptions } from '@edgedns/kv-layout/edge-model'
import { edgeGet } from './edge-kv-read.ts'
import { PRODUCTION_LIMITS } from '@edgedns/platform-limits'

export class ProductionLimitError extends Error {
  override name = 'ProductionLimitError'
  constructor(
    readonly limit: string,
    detail: string
  ) {
    super(`Production limit breached (${limit}): ${detail}`)
  }
}

interface Invocation {
  kvOps: number
}

const invocations = new AsyncLocalStorage<Invocation>()

/** Runs `fn` as one invocation: its KV operations (including awaited continuations) count together. */
export function inInvocation<T>(fn: () => T): T {
  return invocations.run({ kvOps: 0 }, fn)
}

const BREACHES = Symbol.for('edgedns.strictBindings.breaches')
type Global = typeof globalThis & { [BREACHES]?: ProductionLimitError[] }

/** Breaches recorded since the last call (the test setup fails a test that left any). */
export function takeBreaches(): ProductionLimitError[] {
  const g = globalThis as Global
  const list = g[BREACHES] ?? []
  g[BREACHES] = []
  return list
}

function breach(limit: string, detail: string): never {
  const e = new ProductionLimitError(limit, detail)
  const g = globalThis as Global
  ;(g[BREACHES] ??= []).push(e)
  throw e
}

const encoder = new TextEncoder()
const byteLength = (s: string): number => encoder.encode(s).length

/** Upper bound of a value's size in bytes, without encoding (UTF-8 takes at most 3 bytes per UTF-16 unit). */
function maxBytes(v: unknown): number {
  if (typeof v === 'string') return v.length * 3
  if (v instanceof ArrayBuffer) return v.byteLength
  if (ArrayBuffer.isView(v)) return v.byteLength
  return typeof v === 'number' || typeof v === 'bigint' ? 8 : 0
}

function valueBytes(v: unknown): number {
  if (typeof v === 'string') return byteLength(v)
  return maxBytes(v)
}

/** Exact size only when the cheap bound says it might matter (keeps strict mode cheap on big batches). */
function bytesIfOver(v: unknown, limit: number): number {
  return maxBytes(v) <= limit ? 0 : valueBytes(v)
}

const excerpt = (sql: string): string => {
  const s = sql.replace(/\s+/g, ' ').trim()
  return s.length > 120 ? `${s.slice(0, 120)}…` : s
}

// ---------------------------------------------------------------- D1

interface LikeOperand {
  /** Literal pieces and parameter indexes (0-based) concatenated with `||`. */
  parts: ({ literal: string } | { param: number })[]
}

interface ParsedSql {
  /** LIKE/GLOB pattern operands made only of literals and parameters. */
  patterns: LikeOperand[]
}

/**
 * Finds the pattern operand of every LIKE/GLOB (string literals and `?`/`?N` parameters joined by
 * `||`), numbering parameters the way SQLite does (a bare `?` takes the largest index so far + 1).
 * Operands involving columns or functions are computed in SQL and cannot be checked here.
 */
export function parseSql(sql: string): ParsedSql {
  type Tok =
    | { kind: 'str'; value: string }
    | { kind: 'param'; index: number }
    | { kind: 'word'; value: string }
    | { kind: 'op'; value: string }
  const toks: Tok[] = []
  let maxParam = 0
  for (let i = 0; i < sql.length;) {
    const ch = sql[i]!
    if (/\s/.test(ch)) {
      i++
    } else if (ch === "'") {
      let j = i + 1
      let value = ''
      for (;;) {
        if (j >= sql.length) break
        if (sql[j] === "'") {
          if (sql[j + 1] === "'") {
            value += "'"
            j += 2
            continue
          }
          break
        }
        value += sql[j]
        j++
      }
      toks.push({ kind: 'str', value })
      i = j + 1
    } else if (ch === '"' || ch === '`') {
      const end = sql.indexOf(ch, i + 1)
      toks.push({ kind: 'word', value: sql.slice(i + 1, end < 0 ? sql.length : end) })
      i = end < 0 ? sql.length : end + 1
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end + 1
    } else if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      i = end < 0 ? sql.length : end + 2
    } else if (ch === '?') {
      let j = i + 1
      while (j < sql.length && /[0-9]/.test(sql[j]!)) j++
      const index = j > i + 1 ? Number(sql.slice(i + 1, j)) : maxParam + 1
      maxParam = Math.max(maxParam, index)
      toks.push({ kind: 'param', index: index - 1 })
      i = j
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1
      while (j < sql.length && /[A-Za-z0-9_$]/.test(sql[j]!)) j++
      toks.push({ kind: 'word', value: sql.slice(i, j) })
      i = j
    } else if (ch === '|' && sql[i + 1] === '|') {
      toks.push({ kind: 'op', value: '||' })
      i += 2
    } else {
      toks.push({ kind: 'op', value: ch })
      i++
    }
  }
  const patterns: LikeOperand[] = []
  for (let t = 0; t < toks.length; t++) {
    const tok = toks[t]!
    if (tok.kind !== 'word' || !/^(like|glob)$/i.test(tok.value)) continue
    const parts: LikeOperand['parts'] = []
    let k = t + 1
    let computable = true
    for (;;) {
      const operand = toks[k]
      if (operand?.kind === 'str') parts.push({ literal: operand.value })
      else if (operand?.kind === 'param') parts.push({ param: operand.index })
      else {
        computable = false
        break
      }
      const next = toks[k + 1]
      if (next?.kind === 'op' && next.value === '||') k += 2
      else break
    }
    if (computable && parts.length > 0) patterns.push({ parts })
  }
  return { patterns }
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
  constructor(
    inner: D1PreparedStatement,
    readonly sql: string,
    readonly parsed: ParsedSql
  ) {
    this[INNER] = inner
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

// ---------------------------------------------------------------- KV

export interface StrictKvOptions {
  /** The builder's pacing of writes per key; the one-write-per-second check applies only when ≥ 1000. */
  writeIntervalMs: number
  /** Clock of the per-key write check and of the edge cache (tests). */
  now?: () => number
  /**
   * The production KV model (`KV_MODEL=production`): this wrapper is one location whose reads go
   * through its own edge cache. `getWithMetadata` and `list` are not modelled (they read through).
   */
  edgeCache?: boolean
}

function countKvOp(what: string): void {
  const inv = invocations.getStore()
  if (!inv) return
  inv.kvOps++
  if (inv.kvOps > PRODUCTION_LIMITS.kvOpsPerInvocation) {
    breach(
      'KV operations per invocation',
      `${what} is operation ${inv.kvOps} > ${PRODUCTION_LIMITS.kvOpsPerInvocation}`
    )
  }
}

function checkKey(key: string, what: string): void {
  const bytes = byteLength(key)
  if (bytes > PRODUCTION_LIMITS.kvKeyBytes)
    breach(
      'KV key size',
      `${what} key of ${bytes} bytes > ${PRODUCTION_LIMITS.kvKeyBytes}: ${key.slice(0, 80)}…`
    )
}

/** KV with production limits: operations per invocation, key and value sizes, writes per key. */
export function strictKv(kv: KVNamespace, options: StrictKvOptions): KVNamespace {
  const now = options.now ?? Date.now
  const lastWrite = new Map<string, number>()
  const paced = options.writeIntervalMs >= PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs
  const edge = options.edgeCache ? new EdgeCache(now) : null
  const checkWriteRate = (key: string): void => {
    if (!paced) return
    const t = now()
    const prev = lastWrite.get(key)
    if (prev !== undefined && t - prev < PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs) {
      breach(
        'KV writes per key',
        `${key} written again after ${t - prev} ms (at most one write per second per key)`
      )
    }
    lastWrite.set(key, t)
  }
  const wrapped = {
    get: (key: string | string[], opts?: unknown) => {
      for (const k of Array.isArray(key) ? key : [key]) checkKey(k, 'get')
      countKvOp(Array.isArray(key) ? `bulk get of ${key.length} keys` : `get ${key}`)
      if (edge) return edgeGet(kv, edge, key, opts as KvGetOptions | undefined)
      return (kv.get as (k: unknown, o?: unknown) => Promise<unknown>)(key, opts)
    },
    getWithMetadata: (key: string | string[], opts?: unknown) => {
      for (const k of Array.isArray(key) ? key : [key]) checkKey(k, 'getWithMetadata')
      countKvOp(
        Array.isArray(key) ? `bulk getWithMetadata of ${key.length} keys` : `getWithMetadata ${key}`
      )
      return (kv.getWithMetadata as (k: unknown, o?: unknown) => Promise<unknown>)(key, opts)
    },
    put: (
      key: string,
      value: string | ArrayBuffer | ArrayBufferView | ReadableStream,
      opts?: KVNamespacePutOptions
    ) => {
      checkKey(key, 'put')
      const bytes = bytesIfOver(value, PRODUCTION_LIMITS.kvValueBytes)
      if (bytes > PRODUCTION_LIMITS.kvValueBytes)
        breach('KV value size', `put ${key}: ${bytes} bytes > ${PRODUCTION_LIMITS.kvValueBytes}`)
      countKvOp(`put ${key}`)
      checkWriteRate(key)
      return kv.put(key, value, opts)
    },
    delete: (key: string) => {
      checkKey(key, 'delete')
      countKvOp(`delete ${key}`)
      checkWriteRate(key)
      return kv.delete(key)
    },
    list: (opts?: KVNamespaceListOptions) => {
      countKvOp(`list ${opts?.prefix ?? ''}`)
      return kv.list(opts)
    },
  }
  return wrapped as unknown as KVNamespace
}

// ---------------------------------------------------------------- env

export interface StrictCapableEnv {
  STRICT_LIMITS?: string
  KV_MODEL?: string
  KV_KEY_WRITE_INTERVAL_MS?: string
  DB: D1Database
  ZONES_KV: KVNamespace
}

export function strictLimitsOn(env: { STRICT_LIMITS?: string }): boolean {
  return env.STRICT_LIMITS === '1' || env.STRICT_LIMITS === 'true'
}

/** `KV_MODEL=production`: KV reads through a modelled edge cache per wrapper (tests, benchmarks). */
export function productionKvModelOn(env: { KV_MODEL?: string }): boolean {
  return env.KV_MODEL === 'production'
}

/** Whether the strict wrappers apply: `STRICT_LIMITS` on, or the production KV model (which needs them). */
export function strictBindingsOn(env: { STRICT_LIMITS?: string; KV_MODEL?: string }): boolean {
  return strictLimitsOn(env) || productionKvModelOn(env)
}

const wrappedEnvs = new WeakMap<object, object>()

/**
 * The env with strict D1 and KV bindings when `strictBindingsOn`, else the env itself. The
 * wrapped env is cached per env object, so the per-key write history survives across requests.
 */
export function applyStrictLimits<E extends StrictCapableEnv>(env: E): E {
  if (!strictBindingsOn(env)) return env
  const cached = wrappedEnvs.get(env)
  if (cached) return cached as E
  const interval = Number(
    env.KV_KEY_WRITE_INTERVAL_MS ?? PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs
  )
  const db = strictD1(env.DB)
  const kv = strictKv(env.ZONES_KV, {
    writeIntervalMs: Number.isFinite(interval)
      ? interval
      : PRODUCTION_LIMITS.kvWritesPerKeyIntervalMs,
    edgeCache: productionKvModelOn(env),
  })
  // The other D1 shards (`DB_0`, `DB_1`, …) are wrapped on first use.
  const shards = new Map<string, D1Database>()
  const shard = (target: E, prop: string): D1Database => {
    let wrappedShard = shards.get(prop)
    if (!wrappedShard) {
      wrappedShard = strictD1(Reflect.get(target, prop) as D1Database)
      shards.set(prop, wrappedShard)
    }
    return wrappedShard
  }
  const wrapped = new Proxy(env, {
    get: (target, prop) =>
      prop === 'DB'
        ? db
        : prop === 'ZONES_KV'
          ? kv
          : typeof prop === 'string' && /^DB_\d+$/.test(prop) && Reflect.get(target, prop)
            ? shard(target, prop)
            : Reflect.get(target, prop),
  })
  wrappedEnvs.set(env, wrapped)
  return wrapped
}
