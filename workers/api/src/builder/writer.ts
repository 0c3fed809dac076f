/**
 * @module Applies a pass's KV operations: at most one per key, values the ledger shows as already
 * in KV skipped, paced to one write per key per interval, bounded concurrency, ledger in step.
 */
import type { BuilderIo, KvBudget } from './io.ts'
import { digestOf, type KeyLedger } from './ledger.ts'

/** `value: null` deletes the key. */
export interface KeyOp {
  key: string
  value: string | null
  /**
   * A key written once under a name of its own that expires by itself (a versioned head): put
   * with this `expirationTtl` (seconds), always, and kept out of the ledger.
   */
  ttl?: number
  /** `digestOf(value)` when the caller has taken it already. */
  digest?: string
}

export interface WriteOptions {
  /**
   * A value the ledger shows as already in KV is skipped only if written at or after this time:
   * 0 for per-record passes, the build's start for full builds (repairs rewrite everything once,
   * and a retried page does not rewrite what it already wrote), Infinity to always write.
   */
  freshSince: number
  intervalMs: number
}

export const ALWAYS = Number.POSITIVE_INFINITY

export type WriteResult =
  | { kind: 'written'; puts: number; deletes: number; skipped: number }
  | { kind: 'deferred'; until: number }

const CONCURRENCY = 32

export async function applyOps(
  io: BuilderIo,
  ledger: KeyLedger,
  budget: KvBudget,
  ops: KeyOp[],
  options: WriteOptions
): Promise<WriteResult> {
  const unique = new Map<string, KeyOp>()
  for (const op of ops) unique.set(op.key, op) // the last op for a key wins: one write per key
  const entries = ledger.lookup([...unique.keys()])
  const todo: { op: KeyOp; digest: string }[] = []
  let skipped = 0
  let until = 0
  for (const op of unique.values()) {
    if (op.ttl !== undefined) {
      todo.push({ op, digest: '' })
      continue
    }
    const digest = op.value === null ? 'deleted' : (op.digest ?? digestOf(op.value))
    const entry = entries.get(op.key)
    const unchanged =
      op.value === null ? !entry || entry.digest === 'deleted' : entry?.digest === digest
    if (unchanged && (entry?.writtenAt ?? 0) >= options.freshSince) {
      skipped++
      continue
    }
    if (entry && entry.writtenAt > 0) until = Math.max(until, entry.writtenAt + options.intervalMs)
    todo.push({ op, digest })
  }
  if (until > io.now()) return { kind: 'deferred', until }

  let puts = 0
  let deletes = 0
  let failure: unknown = null
  // The ledger is written twice per call, not per key or slice: every DO SQLite write that an
  // await separates is a transaction of its own, and those, not the rows, are what cost.
  ledger.markPending(
    todo.filter(({ op }) => op.value !== null && op.ttl === undefined).map(({ op }) => op.key)
  )
  const put: [key: string, digest: string, at: number][] = []
  const deleted: [key: string, at: number][] = []
  for (let i = 0; i < todo.length && failure === null; i += CONCURRENCY) {
    const slice = todo.slice(i, i + CONCURRENCY)
    budget.spend(slice.length)
    const settled = await Promise.allSettled(
      slice.map(({ op }) =>
        op.value === null
          ? io.kv.delete(op.key)
          : op.ttl !== undefined
            ? io.kv.put(op.key, op.value, { expirationTtl: op.ttl })
            : io.kv.put(op.key, op.value)
      )
    )
    const at = io.now()
    settled.forEach((s, j) => {
      const { op, digest } = slice[j]!
      if (s.status === 'rejected') {
        failure ??= s.reason
        return
      }
      if (op.ttl !== undefined) puts++
      else if (op.value === null) {
        deleted.push([op.key, at])
        deletes++
      } else {
        put.push([op.key, digest, at])
        puts++
      }
    })
  }
  // Keys marked pending and never put (a failure ended the loop) stay pending: written again later.
  ledger.committedPuts(put)
  ledger.committedDeletes(deleted)
  if (failure !== null) throw failure
  return { kind: 'written', puts, deletes, skipped }
}
