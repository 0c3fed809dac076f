/**
 * @module Resolution that never throws: stored-data problems and bugs become SERVFAIL.
 */
import { resolve, type Question, type Resolution } from '@edgedns/resolver'
import type { ZoneView } from '@edgedns/kv-layout'
import { LogBudget } from './log-budget.ts'

export const SERVFAIL: Resolution = {
  rcode: 'SERVFAIL',
  aa: false,
  answer: [],
  authority: [],
  additional: [],
}

/** Failure lines per isolate: at most 20 every 10 s (the rest are counted, not logged). */
const failureLog = new LogBudget(20, 10_000)

/**
 * Logs what went wrong (Workers observability) without the stack of a known data error, at a
 * bounded rate per isolate.
 */
export function logFailure(where: string, err: unknown): void {
  const slot = failureLog.take()
  if (!slot.log) return
  const e = err instanceof Error ? err : new Error(String(err))
  const known = e.name === 'KvLayoutError' || e.name === 'RdataError'
  const held = slot.held > 0 ? ` (+${slot.held} failures not logged)` : ''
  console.error(`doh ${where}: ${e.name}: ${e.message}${held}`, known ? '' : e.stack)
}

/** `resolve` with KvLayoutError, KV failures and any other exception answered as SERVFAIL. */
export async function answer(view: ZoneView, question: Question): Promise<Resolution> {
  try {
    return await resolve(view, question)
  } catch (err) {
    logFailure(`resolve ${question.name}/${question.type}`, err)
    return SERVFAIL
  }
}
