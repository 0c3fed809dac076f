/**
 * @module The hosted-zone index an isolate holds: which zone names are hosted, so a name under no
 * hosted zone costs no KV read. Compiled by the feed primary, stored in KV under `indexKey(v)`,
 * loaded by isolates; entries of the feed after its sequence are its deltas (kept beside it by the
 * isolate, see feed-client).
 *
 * This encoding is the sorted name list (exact). `has` may also be implemented by a filter with a
 * small false-positive rate: callers treat a positive as "read the zone", never as "the zone exists".
 */

const MAGIC = 'edgedns-zone-index-1\n'

export class ZoneIndex {
  readonly #names: Set<string>
  readonly #labelCounts: Set<number>

  private constructor(names: Iterable<string>) {
    this.#names = new Set(names)
    this.#labelCounts = new Set([...this.#names].map(labelCount))
  }

  /** An index of these normalised zone names (lowercase, no trailing dot). */
  static build(zones: Iterable<string>): ZoneIndex {
    return new ZoneIndex(zones)
  }

  static decode(bytes: Uint8Array): ZoneIndex {
    const text = new TextDecoder().decode(bytes)
    if (!text.startsWith(MAGIC)) throw new Error('zone index: not an index')
    const body = text.slice(MAGIC.length)
    return new ZoneIndex(body === '' ? [] : body.split('\n'))
  }

  encode(): Uint8Array {
    return new TextEncoder().encode(MAGIC + [...this.#names].sort().join('\n'))
  }

  /** Whether `zone` may be hosted (no false negatives). */
  has(zone: string): boolean {
    return this.#names.has(zone)
  }

  /** Whether some indexed zone has this many labels (suffixes of other lengths need no probe). */
  hasLabelCount(count: number): boolean {
    return this.#labelCounts.has(count)
  }

  get size(): number {
    return this.#names.size
  }
}

/** Labels of a normalised name ('' = the root, 0 labels). */
export function labelCount(name: string): number {
  if (name === '') return 0
  let n = 1
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) === 46) n++
  return n
}
