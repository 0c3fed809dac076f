/**
 * @module The packed messages of a zone's AXFR answer, kept for the next AXFR of the same version
 * of that zone: a second secondary (or the same one again) is answered by re-signing the messages
 * instead of reading and packing every record anew. Messages are kept unsigned and with the ID of
 * the request they were packed for; each reuse gets its own ID and TSIG chain. Kept answers share
 * one budget of bytes, which also counts answers still being packed; the least recently used are
 * dropped first, and an answer that would not fit is not kept.
 */

/** Where a transfer looks for (and leaves) the packed answer of one version of one zone. */
export interface PackedAnswers {
  /** The messages of an earlier complete answer packed in `form`, or null. */
  find(form: string): readonly Uint8Array[] | null
  /** A keeper for this answer's messages, or null when none is kept. */
  keep(form: string): PackedKeeper | null
}

/** Takes an answer's messages as they are packed; stores them only at `done`. */
export interface PackedKeeper {
  /** Takes the next message; false when the answer no longer fits (offer no more). */
  add(message: Uint8Array): boolean
  /** The answer is complete: it is stored (replacing an older one of the zone). */
  done(): void
  /** The answer did not complete: what was taken is let go (nothing once `done` was called). */
  drop(): void
}

interface Entry {
  zone: string
  version: string
  messages: readonly Uint8Array[]
  bytes: number
}

/** Packed answers of many zones under one budget of bytes (see the module comment). */
export class PackedAnswerCache {
  readonly #budget: number
  /** By zone and form, least recently used first. */
  readonly #entries = new Map<string, Entry>()
  /** Bytes of stored answers and of answers being packed. */
  #used = 0
  /** Moves at `clear`: keepers of an earlier generation keep nothing more. */
  #generation = 0

  constructor(budgetBytes: number) {
    this.#budget = Math.max(0, budgetBytes)
  }

  /** Bytes held now (stored and being packed). */
  get usedBytes(): number {
    return this.#used
  }

  /**
   * The answers of `zone` at `version` (a string that changes whenever anything the answer holds
   * changes: its records, its SOA, its default name servers). An answer of another version is
   * never found, and storing one drops the zone's answers of other versions.
   */
  of(zone: string, version: string): PackedAnswers {
    return {
      find: (form) => this.#find(zone, version, form),
      keep: (form) => (this.#budget > 0 ? this.#keeper(zone, version, form) : null),
    }
  }

  /** Lets go of every answer, stored or being packed (the isolate needs its memory elsewhere). */
  clear(): void {
    this.#entries.clear()
    this.#used = 0
    this.#generation++
  }

  #find(zone: string, version: string, form: string): readonly Uint8Array[] | null {
    const key = `${zone}\n${form}`
    const entry = this.#entries.get(key)
    if (!entry || entry.version !== version) return null
    // Most recently used last.
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry.messages
  }

  /** Frees room for `bytes` more by dropping the least recently used answers; false if it cannot. */
  #room(bytes: number): boolean {
    for (const [key, entry] of this.#entries) {
      if (this.#used + bytes <= this.#budget) break
      this.#remove(key, entry)
    }
    return this.#used + bytes <= this.#budget
  }

  #remove(key: string, entry: Entry): void {
    this.#entries.delete(key)
    this.#used -= entry.bytes
  }

  #keeper(zone: string, version: string, form: string): PackedKeeper {
    const messages: Uint8Array[] = []
    let bytes = 0
    let open = true
    const generation = this.#generation
    const current = () => generation === this.#generation
    const release = () => {
      if (!open) return
      open = false
      // After a `clear` these bytes are no longer counted.
      if (current()) this.#used -= bytes
      messages.length = 0
    }
    return {
      add: (message) => {
        if (!open) return false
        if (!current() || !this.#room(message.length)) {
          release()
          return false
        }
        messages.push(message)
        bytes += message.length
        this.#used += message.length
        return true
      },
      done: () => {
        if (!open || !current()) return release()
        open = false
        // The zone's answers of other versions can never be found again; one of this form is replaced.
        for (const [key, entry] of this.#entries)
          if (entry.zone === zone && (entry.version !== version || key === `${zone}\n${form}`))
            this.#remove(key, entry)
        this.#entries.set(`${zone}\n${form}`, { zone, version, messages, bytes })
      },
      drop: release,
    }
  }
}
