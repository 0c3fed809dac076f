/**
 * @module Resolution that never throws: stored-data problems and bugs become SERVFAIL.
 */
import { resolve, type Question, type Resolution } from '@edgedns/resolver'
import type { ZoneView } from '@edgedns/kv-layout'

export const SERVFAIL: Resolution = {
  rcode: 'SERVFAIL',
  aa: false,
  answer: [],
  authority: [],
  additional: [],
}

/** Logs what went wrong (Workers observability) without the stack of a known data error. */
export function logFailure(where: string, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err))
  const known = e.name === 'KvLayoutError' || e.name === 'RdataError'
  console.error(`doh ${where}: ${e.name}: ${e.message}`, known ? '' : e.stack)
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
