/**
 * @module The production limits strict mode checks, the breach it throws and records, the
 * per-invocation scope of its counters, and the byte sizes it measures.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export class ProductionLimitError extends Error {
  override name = 'ProductionLimitError'
  readonly limit: string
  constructor(limit: string, detail: string) {
    super(`Production limit breached (${limit}): ${detail}`)
    this.limit = limit
  }
}

interface Invocation {
  kvOps: number
}

export const invocations = new AsyncLocalStorage<Invocation>()

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

export function breach(limit: string, detail: string): never {
  const e = new ProductionLimitError(limit, detail)
  const g = globalThis as Global
  ;(g[BREACHES] ??= []).push(e)
  throw e
}

const encoder = new TextEncoder()
export const byteLength = (s: string): number => encoder.encode(s).length

/** Upper bound of a value's size in bytes, without encoding (UTF-8 takes at most 3 bytes per UTF-16 unit). */
export function maxBytes(v: unknown): number {
  if (typeof v === 'string') return v.length * 3
  if (v instanceof ArrayBuffer) return v.byteLength
  if (ArrayBuffer.isView(v)) return v.byteLength
  return typeof v === 'number' || typeof v === 'bigint' ? 8 : 0
}

export function valueBytes(v: unknown): number {
  if (typeof v === 'string') return byteLength(v)
  return maxBytes(v)
}

/** Exact size only when the cheap bound says it might matter (keeps strict mode cheap on big batches). */
export function bytesIfOver(v: unknown, limit: number): number {
  return maxBytes(v) <= limit ? 0 : valueBytes(v)
}
