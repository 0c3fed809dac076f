/**
 * @module An in-memory `FeedStore`: the feed log for unit tests and the virtual-clock simulation.
 * Same semantics as the Durable Object's SQLite store; no rollback (the log validates before writing).
 */
import type { FeedMeta, FeedStore, StoredEntry, ZoneRow } from './feed-store.ts'
import type { FeedAppend } from './protocol.ts'

const entryKey = (e: FeedAppend): string => `${e.zone}\n${e.id}\n${e.op}\n${e.n}`
const deleteKey = (zone: string, id: string): string => `${zone}\n${id}`

export class MemoryFeedStore implements FeedStore {
  #meta: FeedMeta | null = null
  /** Entries by seq (contiguous from the first kept). */
  #entries: StoredEntry[] = []
  #entryKeys = new Set<string>()
  #deletes = new Map<string, number>()
  #zones = new Map<string, ZoneRow>()
  /** Zone rows by seq ascending; a replaced row leaves a hole (undefined) until compaction. */
  #bySeq: (ZoneRow | undefined)[] = []
  #seqs: number[] = []
  #pos = new Map<string, number>()
  #holes = 0
  #seen = new Map<string, number>()

  transaction<T>(fn: () => T): T {
    return fn()
  }

  readMeta(): FeedMeta | null {
    return this.#meta === null ? null : structuredClone(this.#meta)
  }

  writeMeta(meta: FeedMeta): void {
    this.#meta = structuredClone(meta)
  }

  hasEntry(entry: FeedAppend): boolean {
    return this.#entryKeys.has(entryKey(entry))
  }

  hasDelete(zone: string, id: string): boolean {
    return (this.#deletes.get(deleteKey(zone, id)) ?? 0) > 0
  }

  insertEntry(entry: StoredEntry): void {
    this.#entries.push({ ...entry })
    this.#entryKeys.add(entryKey(entry))
    if (entry.op === 'delete') {
      const k = deleteKey(entry.zone, entry.id)
      this.#deletes.set(k, (this.#deletes.get(k) ?? 0) + 1)
    }
  }

  seqBefore(at: number): number {
    // Arrival times are non-decreasing with seq: the last entry with at < `at`.
    let lo = 0
    let hi = this.#entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#entries[mid]!.at < at) lo = mid + 1
      else hi = mid
    }
    return lo === 0 ? 0 : this.#entries[lo - 1]!.seq
  }

  trimThrough(seq: number): void {
    let cut = 0
    while (cut < this.#entries.length && this.#entries[cut]!.seq <= seq) {
      const e = this.#entries[cut]!
      this.#entryKeys.delete(entryKey(e))
      if (e.op === 'delete') {
        const k = deleteKey(e.zone, e.id)
        const left = (this.#deletes.get(k) ?? 1) - 1
        if (left > 0) this.#deletes.set(k, left)
        else this.#deletes.delete(k)
      }
      cut++
    }
    this.#entries.splice(0, cut)
    for (const row of [...this.#zones.values()])
      if (row.op === 'delete' && row.seq <= seq) this.#removeZone(row.zone)
  }

  zone(name: string): ZoneRow | null {
    const row = this.#zones.get(name)
    return row === undefined ? null : { ...row }
  }

  putZone(row: ZoneRow): void {
    this.#removeZone(row.zone)
    const copy = { ...row }
    this.#zones.set(row.zone, copy)
    // Rows are put with the newest seq, so appending keeps the order.
    this.#pos.set(row.zone, this.#bySeq.length)
    this.#bySeq.push(copy)
    this.#seqs.push(row.seq)
  }

  zonesAfter(after: number, limit: number): ZoneRow[] {
    const out: ZoneRow[] = []
    for (let i = this.#firstAfter(after); i < this.#bySeq.length && out.length < limit; i++) {
      const row = this.#bySeq[i]
      if (row !== undefined) out.push({ ...row })
    }
    return out
  }

  resyncZones(windowSeq: number, indexSeq: number, limit: number): ZoneRow[] {
    const out: ZoneRow[] = []
    for (let i = this.#bySeq.length - 1; i >= 0 && out.length < limit; i--) {
      const row = this.#bySeq[i]
      if (row !== undefined && (row.seq > windowSeq || row.since > indexSeq)) out.push({ ...row })
    }
    return out.reverse()
  }

  *servedNames(): Iterable<string> {
    for (const row of this.#zones.values()) if (row.op === 'head') yield row.zone
  }

  markSeen(zones: string[], session: number): void {
    for (const z of zones) this.#seen.set(z, session)
  }

  unseenServed(session: number, after: string, limit: number): ZoneRow[] {
    return [...this.#zones.values()]
      .filter((r) => r.op === 'head' && r.zone > after && this.#seen.get(r.zone) !== session)
      .sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0))
      .slice(0, limit)
      .map((r) => ({ ...r }))
  }

  clearSeen(): void {
    this.#seen.clear()
  }

  /** Entries kept (tests). */
  get entryCount(): number {
    return this.#entries.length
  }

  #firstAfter(seq: number): number {
    let lo = 0
    let hi = this.#seqs.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#seqs[mid]! <= seq) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  #removeZone(name: string): void {
    const at = this.#pos.get(name)
    if (at === undefined) return
    this.#bySeq[at] = undefined
    this.#pos.delete(name)
    this.#zones.delete(name)
    if (++this.#holes > 1024 && this.#holes * 2 > this.#bySeq.length) this.#compact()
  }

  #compact(): void {
    const rows = this.#bySeq.filter((r): r is ZoneRow => r !== undefined)
    this.#bySeq = rows
    this.#seqs = rows.map((r) => r.seq)
    this.#pos = new Map(rows.map((r, i) => [r.zone, i]))
    this.#holes = 0
  }
}
