/**
 * @module The packed messages of a zone's AXFR answer, kept for the next AXFR of the same version
 * of that zone: a second secondary (or the same one again) is answered by re-signing the messages
 * instead of reading and packing every record anew. Messages are kept unsigned and with the ID of
 * the request they were packed for; each reuse gets its own ID and TSIG chain.
 *
 * Memory: kept answers share one budget of bytes, which counts what an answer holds (its messages,
 * an allowance for each message's and each entry's own objects, its key and version strings), the
 * answers still being packed, and answers dropped from the cache while a transfer still reads
 * them (until it ends). Only answers of at least `minBytes` are kept (a small zone is one cheap
 * read anyway), at most `formsPerZone` forms of one zone, and the least recently used go first. A
 * keeper or a reader that never ends (a request torn down mid-await) is let go after `maxAgeMs`.
 */

/** Where a transfer looks for (and leaves) the packed answer of one version of one zone. */
export interface PackedAnswers {
  /** The messages of an earlier complete answer packed in `form`, or null; release when done. */
  find(form: string): PackedLease | null
  /** A keeper for this answer's messages, or null when none is kept. */
  keep(form: string): PackedKeeper | null
  /** Whether another transfer is packing this answer now (a keeper not yet done or dropped). */
  packing(form: string): boolean
}

/** A kept answer being read: its bytes stay counted until `release`, even if dropped meanwhile. */
export interface PackedLease {
  readonly messages: readonly Uint8Array[]
  release(): void
}

/** Takes an answer's messages as they are packed; stores them only at `done`. */
export interface PackedKeeper {
  /** Takes the next message; false when the answer is not kept (offer no more). */
  add(message: Uint8Array): boolean
  /** The answer is complete: it is stored (replacing an older one of the zone). */
  done(): void
  /** The answer did not complete: what was taken is let go (nothing once `done` was called). */
  drop(): void
}

export interface PackedAnswerLimits {
  /** Bytes all answers may hold together. */
  budgetBytes: number
  /** Smallest answer kept (default 64 KiB). */
  minBytes?: number
  /** Forms of one zone's answer kept at once (default 2). */
  formsPerZone?: number
  /** A keeper or reader older than this is let go (default 15 minutes). */
  maxAgeMs?: number
  /** Milliseconds since the epoch (default `Date.now`). */
  now?: () => number
}

/** What a keeper packs: its zone, form and version (a keeper is packing while it is held). */
const packingKey = (zone: string, form: string, version: string): string =>
  `${zone}\n${form}\n${version}`

/** Counted for each message beside its octets (its buffer and view objects). */
const MESSAGE_OVERHEAD = 128
/** Counted for each kept answer beside its messages and strings (the entry and its maps). */
const ENTRY_OVERHEAD = 512

interface Entry {
  key: string
  zone: string
  version: string
  /** Orders the zone's versions: an answer of a lower one is never stored over a higher one's. */
  order: number
  messages: readonly Uint8Array[]
  bytes: number
  readers: number
  /** Out of the cache; its bytes are counted until its last reader ends. */
  dropped: boolean
}

interface Holder {
  kind: 'keeper' | 'reader'
  /** A keeper's answer: zone, form and version (`packingKey`). */
  packs?: string
  since: number
  /** Lets go of what it holds (idempotent). */
  end(): void
}

/** Packed answers of many zones under one budget of bytes (see the module comment). */
export class PackedAnswerCache {
  readonly #budget: number
  readonly #minBytes: number
  readonly #formsPerZone: number
  readonly #maxAgeMs: number
  readonly #now: () => number
  /** By zone and form, least recently used first. */
  readonly #entries = new Map<string, Entry>()
  /** The keys of each zone's entries. */
  readonly #byZone = new Map<string, Set<string>>()
  /** Keepers packing and leases being read. */
  readonly #holders = new Set<Holder>()
  /** Bytes counted now (see the module comment). */
  #used = 0

  constructor(limits: PackedAnswerLimits) {
    this.#budget = Math.max(0, limits.budgetBytes)
    this.#minBytes = limits.minBytes ?? 64 * 1024
    this.#formsPerZone = Math.max(1, limits.formsPerZone ?? 2)
    this.#maxAgeMs = limits.maxAgeMs ?? 15 * 60_000
    this.#now = limits.now ?? Date.now
  }

  /** Bytes counted now. */
  get usedBytes(): number {
    return this.#used
  }

  /** Answers stored now. */
  get size(): number {
    return this.#entries.size
  }

  /**
   * The answers of `zone` at `version` (a string that changes whenever anything the answer holds
   * changes: its records, its SOA, its default name servers). An answer of another version is
   * never found, and storing one drops the zone's answers of other versions, unless one of them
   * is of a higher `order` (a later version: the answer just completed is already stale).
   */
  of(zone: string, version: string, order = 0): PackedAnswers {
    return {
      find: (form) => this.#find(zone, version, form),
      keep: (form) => (this.#budget > 0 ? this.#keeper(zone, version, order, form) : null),
      packing: (form) => {
        const packs = packingKey(zone, form, version)
        for (const holder of this.#holders) if (holder.packs === packs) return true
        return false
      },
    }
  }

  /** Lets go of every stored answer and every answer being packed (answers being read end first). */
  clear(): void {
    for (const entry of [...this.#entries.values()]) this.#remove(entry)
    for (const holder of [...this.#holders]) if (holder.kind === 'keeper') holder.end()
  }

  #find(zone: string, version: string, form: string): PackedLease | null {
    const key = `${zone}\n${form}`
    const entry = this.#entries.get(key)
    if (!entry || entry.version !== version) return null
    // Most recently used last.
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    entry.readers++
    let open = true
    const lease: Holder & PackedLease = {
      kind: 'reader',
      since: this.#now(),
      messages: entry.messages,
      end: () => {
        if (!open) return
        open = false
        this.#holders.delete(lease)
        entry.readers--
        if (entry.dropped && entry.readers === 0) this.#used -= entry.bytes
      },
      release: () => lease.end(),
    }
    this.#holders.add(lease)
    return lease
  }

  /** Lets go of holders past their age, then frees room for `bytes` more; false if it cannot. */
  #room(bytes: number): boolean {
    const old = this.#now() - this.#maxAgeMs
    for (const holder of [...this.#holders]) if (holder.since < old) holder.end()
    for (const entry of [...this.#entries.values()]) {
      if (this.#used + bytes <= this.#budget) break
      this.#remove(entry)
    }
    return this.#used + bytes <= this.#budget
  }

  #remove(entry: Entry): void {
    this.#entries.delete(entry.key)
    const keys = this.#byZone.get(entry.zone)
    keys?.delete(entry.key)
    if (keys?.size === 0) this.#byZone.delete(entry.zone)
    entry.dropped = true
    if (entry.readers === 0) this.#used -= entry.bytes
  }

  #store(entry: Entry): void {
    const keys = this.#byZone.get(entry.zone) ?? new Set<string>()
    this.#byZone.set(entry.zone, keys)
    // The zone's answers of other versions can never be found again; one of this form is replaced.
    for (const key of [...keys]) {
      const other = this.#entries.get(key)!
      if (other.version !== entry.version || key === entry.key) this.#remove(other)
    }
    // Past its forms, the zone's least recently used form goes (keys iterate oldest first).
    for (const key of keys) {
      if (keys.size < this.#formsPerZone) break
      this.#remove(this.#entries.get(key)!)
    }
    keys.add(entry.key)
    this.#entries.set(entry.key, entry)
  }

  /** Whether the zone holds an answer of a later version than `order`. */
  #newerThan(zone: string, order: number): boolean {
    for (const key of this.#byZone.get(zone) ?? [])
      if (this.#entries.get(key)!.order > order) return true
    return false
  }

  #keeper(zone: string, version: string, order: number, form: string): PackedKeeper {
    const key = `${zone}\n${form}`
    const messages: Uint8Array[] = []
    let bytes = 0
    let open = true
    const holder: Holder = {
      kind: 'keeper',
      packs: packingKey(zone, form, version),
      since: this.#now(),
      end: () => {
        if (!open) return
        open = false
        this.#holders.delete(holder)
        this.#used -= bytes
        messages.length = 0
      },
    }
    this.#holders.add(holder)
    const take = (n: number): boolean => {
      if (!open) return false
      if (!this.#room(n)) {
        holder.end()
        return false
      }
      bytes += n
      this.#used += n
      return true
    }
    // The entry's own objects and strings are counted from the start.
    take(ENTRY_OVERHEAD + 2 * (key.length + version.length))
    return {
      add: (message) => {
        if (!take(message.length + MESSAGE_OVERHEAD)) return false
        messages.push(message)
        return true
      },
      done: () => {
        if (!open) return
        if (bytes < this.#minBytes || this.#newerThan(zone, order)) return holder.end()
        open = false
        this.#holders.delete(holder)
        const entry = { key, zone, version, order, messages, bytes, readers: 0, dropped: false }
        this.#store(entry)
      },
      drop: () => holder.end(),
    }
  }
}
