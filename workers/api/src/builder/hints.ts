/**
 * @module What the API says a small change touched, carried by its notification: the sequence it
 * extends and the record names it changed. With it a pass reads the change log and the rows of
 * the names it will touch in one D1 round trip instead of two. A hint is only a guess about the
 * log: the pass still plans from the log it read, and uses the rows read with the hint only when
 * they cover every name that plan touches (otherwise it reads them, as without a hint). Hints live
 * in the Durable Object's memory only: losing them costs a round trip, never a change.
 */
import { ancestorsBetween, isInZone } from '@edgedns/kv-layout'
import type { PassInput } from './queries.ts'

/** A committed change as its notification describes it. */
export interface ChangeHint {
  /** The change-log sequence the change follows (its first row is `after + 1`). */
  after: number
  /** The sequence it committed up to. */
  upTo: number
  /** Record names it created, changed or removed (old and new names). */
  names: string[]
  /**
   * What a pass from `after` reads first (zone row, the change's log rows, the rows of the names
   * it touches), read in the commit's own transaction: the pass then needs no D1 round trip.
   * Kept in memory only; the newest `MAX_SNAPSHOTS` hints keep theirs.
   */
  snapshot?: PassInput
}

/** Each of `names` in the zone with its ancestors below the apex (the apex itself when named). */
export function touchedNames(names: Iterable<string>, apex: string): Set<string> {
  const touched = new Set<string>()
  for (const name of names) {
    if (!isInZone(name, apex)) continue
    touched.add(name)
    if (name !== apex) for (const a of ancestorsBetween(name, apex)) touched.add(a)
  }
  return touched
}

/** Hints kept at most (a builder that falls this far behind reads the log as usual). */
const MAX_HINTS = 64
/** Only the newest hints keep their snapshot (each can hold up to `SNAPSHOT_MAX_ROWS` records). */
const MAX_SNAPSHOTS = 8
/** `seen` before any read: nothing known, so no snapshot is taken. */
const UNKNOWN = Number.MAX_SAFE_INTEGER
/** Record names one hint may carry; larger changes are read from the log. */
export const MAX_HINT_NAMES = 200

/** Hints of recent notifications, chained from the builder's cursor when a pass starts. */
export class HintChain {
  #hints: ChangeHint[] = []
  /**
   * An upper bound of the zone's change sequence as of every D1 read whose rows the mirror or the
   * metadata may hold. A snapshot older than that would take a name back to an older state, so
   * it is not used.
   */
  #seen = UNKNOWN

  add(hint: ChangeHint): void {
    if (!isValidHint(hint)) return
    this.#hints = [...this.#hints.filter((h) => h.after !== hint.after), hint]
      .sort((a, b) => a.after - b.after)
      .slice(-MAX_HINTS)
      .map((h, i, all) =>
        i < all.length - MAX_SNAPSHOTS && h.snapshot ? { ...h, snapshot: undefined } : h
      )
  }

  /**
   * The pass's rows came from a read made at change sequence `seq` with its zone row (a D1 read
   * now, or a snapshot not older than what was seen before): everything read earlier is at most
   * `seq` too, since D1 reads are made one after another.
   */
  observed(seq: number): void {
    this.#seen = seq
  }

  /** Rows came from a read without a zone row (a second read, a full build's pages): bound unknown. */
  observedUnknown(): void {
    this.#seen = UNKNOWN
  }

  /**
   * The names a pass from `cursor` is expected to touch (each changed name with its ancestors
   * below the apex, the apex itself when a change is at the apex), or null when no hint starts
   * exactly at the cursor. Hints at or below the cursor are dropped.
   */
  expectedNames(cursor: number, apex: string): string[] | null {
    this.#hints = this.#hints.filter((h) => h.upTo > cursor)
    const names = new Set<string>()
    let at = cursor
    for (const h of this.#hints) {
      if (h.after !== at) continue
      for (const name of touchedNames(h.names, apex)) names.add(name)
      at = h.upTo
    }
    return at === cursor ? null : [...names]
  }

  /**
   * The snapshot of the hint that starts exactly at `cursor`, when it holds that change's whole
   * log (rows `cursor + 1` … `upTo`, in order) and the state of the names it touches; else null.
   */
  snapshotAt(cursor: number): PassInput | null {
    const h = this.#hints.find((x) => x.after === cursor)
    const snap = h?.snapshot
    if (!h || !snap || !snap.zone || !snap.names) return null
    // Older than rows already read (a full build, a pass cut short, a second read): not used.
    if (!(snap.zone.change_seq >= this.#seen)) return null
    const complete =
      snap.log.length === h.upTo - h.after && snap.log.every((row, i) => row.seq === cursor + 1 + i)
    return complete ? snap : null
  }

  get size(): number {
    return this.#hints.length
  }
}

function isValidHint(h: ChangeHint): boolean {
  return (
    Number.isInteger(h.after) &&
    Number.isInteger(h.upTo) &&
    h.after >= 0 &&
    h.upTo > h.after &&
    Array.isArray(h.names) &&
    h.names.length <= MAX_HINT_NAMES &&
    h.names.every((n) => typeof n === 'string')
  )
}
