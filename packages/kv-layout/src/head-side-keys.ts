/**
 * @module The keys a head may name besides its own value: a large overlay (`overlayKey`, read per
 * head) and a versions table (`versionsKey`, written once and read once per isolate: the decoded
 * tables are kept, least recently used first out, within a bound on the versions they hold and
 * within their share of the view's cache, whose bytes they are counted in). A head is usable once
 * both are in.
 */
import { decodeBucketVersions, withVersionsTable } from './head-versions.ts'
import { decodeOverlay } from './head.ts'
import { IMMUTABLE_CACHE_TTL_S, SIGNAL_CACHE_TTL_S } from './kv-reads.ts'
import type { BucketVersions, ZoneHead } from './types.ts'

/** Bucket versions the kept tables may hold in all (a 4,096-bucket zone's table holds up to 4,096). */
const KEPT_TABLE_VERSIONS = 65_536

/** Bytes counted per kept table beyond its versions: its object, its map, its key and slot here. */
const TABLE_BYTES = 256

/**
 * Bytes counted per version a kept table holds: a map entry of two small integers, rounded up from
 * the heap decoded tables of several sizes take, with the slack of a map that has just grown.
 */
const TABLE_VERSION_BYTES = 48

/** Bytes a kept table is counted for. */
function keptTableBytes(key: string, table: BucketVersions): number {
  return TABLE_BYTES + key.length + table.changed.size * TABLE_VERSION_BYTES
}

/** Where the kept tables' bytes are counted, and how many they may take. */
interface TableBudget {
  capBytes: number
  /** Counts (or, negative, releases) bytes of kept tables in the cache they share. */
  charge(delta: number): void
}

export class HeadSideKeys {
  /** Decoded versions tables by key, least recently used first. */
  readonly #tables = new Map<string, BucketVersions>()
  #versions = 0
  #bytes = 0

  readonly #read: (keys: string[], cacheTtl: number) => Promise<Map<string, string | null>>
  readonly #budget: TableBudget

  constructor(
    read: (keys: string[], cacheTtl: number) => Promise<Map<string, string | null>>,
    budget: TableBudget
  ) {
    this.#read = read
    this.#budget = budget
  }

  /** Bytes the kept tables are counted for. */
  get bytes(): number {
    return this.#bytes
  }

  /** Forgets every kept table. */
  clear(): void {
    const bytes = this.#bytes
    this.#tables.clear()
    this.#versions = 0
    this.#bytes = 0
    this.#budget.charge(-bytes)
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

  /**
   * Keeps a table read (not one larger than the tables' share: it is read again when named),
   * forgetting the least recently used past the bounds; the cache is charged the difference.
   */
  #keep(key: string, table: BucketVersions): void {
    const before = this.#bytes
    this.#forget(key) // two reads of one table at once
    if (keptTableBytes(key, table) <= this.#budget.capBytes) {
      this.#tables.set(key, table)
      this.#versions += table.changed.size
      this.#bytes += keptTableBytes(key, table)
      for (const oldest of this.#tables.keys()) {
        const within = this.#versions <= KEPT_TABLE_VERSIONS && this.#bytes <= this.#budget.capBytes
        if (within || oldest === key) break
        this.#forget(oldest)
      }
    }
    this.#budget.charge(this.#bytes - before)
  }

  #forget(key: string): void {
    const table = this.#tables.get(key)
    if (table === undefined) return
    this.#tables.delete(key)
    this.#versions -= table.changed.size
    this.#bytes -= keptTableBytes(key, table)
  }
}
