/**
 * @module Splits a huge change set into limit-sized batches, keeping the engine's order
 * (deletes → patches → puts → posts, request order inside each list). Each chunk is atomic on
 * its own; the whole change set is NOT: if chunk k fails, chunks 1..k-1 stay committed.
 */
import type { BatchRequest, BatchResult } from './types.ts'

type Section = keyof BatchRequest
const SECTIONS: Section[] = ['deletes', 'patches', 'puts', 'posts']

export function countChanges(r: BatchRequest): number {
  return SECTIONS.reduce((n, s) => n + (r[s]?.length ?? 0), 0)
}

export function splitBatch(req: BatchRequest, size: number): BatchRequest[] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`chunk size must be a positive integer, got ${size}`)
  const chunks: BatchRequest[] = []
  let current: BatchRequest = {}
  let n = 0
  for (const section of SECTIONS) {
    for (const item of req[section] ?? []) {
      if (n === size) {
        chunks.push(current)
        current = {}
        n = 0
      }
      const list = (current[section] ??= []) as unknown[]
      list.push(item)
      n++
    }
  }
  if (n > 0) chunks.push(current)
  return chunks
}

export function mergeResults(into: BatchResult, part: BatchResult): BatchResult {
  for (const section of SECTIONS) {
    const items = part[section]
    if (items) (into[section] ??= []).push(...items)
  }
  return into
}

/** The limit the server named in a 81063 "batch too large" error, if any. */
export function limitFromError(message: string): number | undefined {
  const m = /limit for this account is (\d+)/.exec(message)
  return m ? Number(m[1]) : undefined
}
