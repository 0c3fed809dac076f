/**
 * @module What the copy a secondary zone holds lacks of its primary's zone: the records its
 * transfers left out (record-map.ts: types the records API does not hold, records it refuses,
 * names outside the zone), counted by type with the first reason given, recorded on the zone row
 * with the copy (`zones.secondary_skipped`) and answered by the incoming settings as
 * `skipped_records`. An AXFR's report is what it left out; an IXFR's is the report held before
 * with what it added and deleted of those types (a primary's IXFR is exact, so the counts follow
 * the primary's zone). The report is stored with the version of the record mapping that made it
 * (record-map.ts `RECORD_MAPPING`; a report stored as a bare array is version 1's).
 */
import { RECORD_MAPPING } from './record-map.ts'

export interface SkippedType {
  type: string
  count: number
  reason: string
}

/**
 * Types a report keeps at most (the most skipped first; a primary sending records of thousands of
 * unknown types cannot grow it further), and answers at most; a reason is cut to this many
 * characters.
 */
const KEPT_TYPES = 100
export const ANSWERED_TYPES = 32
const MAX_REASON = 200

/** The records one transfer left out, by type. */
export class SkipTally {
  readonly #byType = new Map<string, { added: number; deleted: number; reason: string }>()
  #total = 0

  /** Records left out, added and deleted. */
  get total(): number {
    return this.#total
  }

  note(op: 'add' | 'delete', type: string, reason: string): void {
    this.#total++
    let entry = this.#byType.get(type)
    if (!entry) this.#byType.set(type, (entry = { added: 0, deleted: 0, reason }))
    if (op === 'add') entry.added++
    else entry.deleted++
  }

  /**
   * The copy's report after this transfer: `whole` for an AXFR (the report is what it left out),
   * else `held`, the report of the copy the IXFR applied to, moved by what the IXFR added and
   * deleted. A type keeps the first reason given for it.
   */
  report(held: readonly SkippedType[], whole: boolean): SkippedType[] {
    const out = new Map((whole ? [] : held).map((s) => [s.type, { ...s }]))
    for (const [type, { added, deleted, reason }] of this.#byType) {
      const before = out.get(type)
      const count = Math.max(0, (before?.count ?? 0) + added - (whole ? 0 : deleted))
      out.set(type, { type, count, reason: (before?.reason ?? reason).slice(0, MAX_REASON) })
    }
    return [...out.values()]
      .filter((s) => s.count > 0)
      .sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1))
      .slice(0, KEPT_TYPES)
  }
}

/** What a copy lacks, by type, and the version of the record mapping that judged it. */
export interface SkipReport {
  mapping: number
  types: SkippedType[]
}

/**
 * The report of a copy after a transfer with `tally`: an AXFR's is its own, by this mapping; an
 * IXFR's moves the report of the copy it applied to (`held`; none: no report) and keeps its
 * version while that copy lacked something (the records an earlier mapping left out are still
 * missing), the current one otherwise.
 */
export function reportAfter(
  tally: SkipTally,
  held: SkipReport | null,
  whole: boolean
): SkipReport | null {
  if (whole) return { mapping: RECORD_MAPPING, types: tally.report([], true) }
  if (held === null) return null
  const mapping = held.types.length > 0 ? held.mapping : RECORD_MAPPING
  return { mapping, types: tally.report(held.types, false) }
}

/** A report as the zone row stores it (`zones.secondary_skipped`). */
export const storedReport = (report: SkipReport): string => JSON.stringify(report)

/** A stored report, or null when there is none (or it is not one). */
export function parseSkipped(json: string | null): SkipReport | null {
  if (json === null) return null
  let v: unknown
  try {
    v = JSON.parse(json)
  } catch {
    return null
  }
  // Version 1 stored the types alone.
  const stored = Array.isArray(v) ? { mapping: 1, types: v } : (v as Partial<SkipReport> | null)
  const types: unknown = stored?.types
  if (!Number.isInteger(stored?.mapping) || !Array.isArray(types)) return null
  return { mapping: stored!.mapping!, types: types.filter(isSkippedType) }
}

function isSkippedType(s: unknown): s is SkippedType {
  const t = s as Partial<SkippedType> | null
  return typeof t?.type === 'string' && Number.isInteger(t.count) && typeof t.reason === 'string'
}
