/**
 * @module The keys a head may name besides its own value: a large overlay (`overlayKey`, read per
 * head) and a versions table (`versionsKey`, written once and read once per isolate: the decoded
 * tables are kept, within a bound on the versions they hold). A head is usable once both are in.
 */
import { decodeBucketVersions, withVersionsTable } from './head-versions.ts'
import { decodeOverlay } from './head.ts'
import { IMMUTABLE_CACHE_TTL_S, SIGNAL_CACHE_TTL_S } from './kv-reads.ts'
import type { BucketVersions, ZoneHead } from './types.ts'

/** Bucket versions the kept tables may hold in all (a 4,096-bucket zone's table holds up to 4,096). */
const KEPT_TABLE_VERSIONS = 65_536

export class HeadSideKeys {
  /** Decoded versions tables by key, least recently used first. */
  readonly #tables = new Map<string, BucketVersions>()
  #kept = 0

  readonly #read: (keys: string[], cacheTtl: number) => Promise<Map<string, string | null>>

  constructor(read: (keys: string[], cacheTtl: number) => Promise<Map<string, string | null>>) {
    this.#read = read
  }

  /**
   * The head with its overlay and its versions complete: one KV round trip for whichever side
   * key it names that is not kept here; null while one of them is not visible yet.
   */
  async resolve(head: ZoneHead, cacheTtl: number = SIGNAL_CACHE_TTL_S): Promise<ZoneHead | null> {
    const { overlayKey, versionsKey } = head
    if (overlayKey === undefined && versionsKey === undefined) return head
    let table = versionsKey !== undefined ? this.#recall(versionsKey) : undefined
    const wanted: string[] = []
    if (overlayKey !== undefined) wanted.push(overlayKey)
    if (versionsKey !== undefined && table === undefined) wanted.push(versionsKey)
    // A table is never rewritten: read alone, it may stay cached at the edge as long as KV allows.
    const ttl = overlayKey === undefined ? IMMUTABLE_CACHE_TTL_S : cacheTtl
    const values =
      wanted.length > 0 ? await this.#read(wanted, ttl) : new Map<string, string | null>()
    let out = head
    if (overlayKey !== undefined) {
      const value = values.get(overlayKey)
      if (value === null || value === undefined) return null
      out = { ...out, overlay: decodeOverlay(value) }
    }
    if (versionsKey !== undefined) {
      if (table === undefined) {
        const value = values.get(versionsKey)
        if (value === null || value === undefined) return null
        table = decodeBucketVersions(value)
        this.#keep(versionsKey, table)
      }
      out = withVersionsTable(out, table)
    }
    return out
  }

  /** A kept table, now the most recently used. */
  #recall(key: string): BucketVersions | undefined {
    const table = this.#tables.get(key)
    if (table === undefined) return undefined
    this.#tables.delete(key)
    this.#tables.set(key, table)
    return table
  }

  #keep(key: string, table: BucketVersions): void {
    const before = this.#tables.get(key)
    if (before) this.#kept -= before.changed.size // two reads of one table at once
    this.#tables.delete(key)
    this.#tables.set(key, table)
    this.#kept += table.changed.size
    for (const [oldest, t] of this.#tables) {
      if (this.#kept <= KEPT_TABLE_VERSIONS || oldest === key) break
      this.#tables.delete(oldest)
      this.#kept -= t.changed.size
    }
  }
}
