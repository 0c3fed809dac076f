/**
 * @module The zones a view holds, bounded in bytes: each held compactly (`held-head.ts`), charged
 * `HELD_ZONE_BYTES` plus what its head holds unshared against both the zones' cap and the cache
 * they share with bucket texts, evicted second-chance (CLOCK: a zone looked up since the hand last
 * passed goes to the back once). With the feed, an evicted zone is remembered (`KnownZone`) so
 * that reading it again costs its versioned head (and, often, its buckets in the same read).
 */
import { BucketCache, INLINE_OVERHEAD, keptIndexes } from './bucket-cache.ts'
import { bucketVersion } from './head.ts'
import { HELD_ZONE_BYTES, HeldHeads } from './held-head.ts'
import { bucketCount, ZoneEntry, type KnownZone } from './zone-entry.ts'
import type { BucketVersions, ZoneHead } from './types.ts'

/** Bytes charged for the zone's inline bucket (none when it keeps none inline). */
function inlineBytes(entry: ZoneEntry): number {
  return typeof entry.buckets === 'string' ? entry.buckets.length + INLINE_OVERHEAD : 0
}

/**
 * Zones whose entries were evicted for room, remembered with the head the feed last named for
 * them (a map entry and a small object, the name and id shared with the evicted entry, so the
 * count is bounded well inside the isolate's memory; the oldest go first).
 */
const MAX_KNOWN_ZONES = 50_000

export class HeldZones {
  readonly #zones = new Map<string, ZoneEntry>()
  readonly #buckets: BucketCache
  readonly #capBytes: number
  /** Whether evicted zones are remembered (with a feed to keep what is remembered current). */
  readonly #remember: boolean
  readonly #heads = new HeldHeads()
  readonly #known = new Map<string, KnownZone>()
  /** Bytes charged to held zones: HELD_ZONE_BYTES each plus what their heads hold unshared. */
  #bytes = 0
  #stamps = 0

  constructor(buckets: BucketCache, capBytes: number, remember: boolean) {
    this.#buckets = buckets
    this.#capBytes = capBytes
    this.#remember = remember
    // A zone's inline bucket is part of the zone: charged with it, and room is made among zones.
    buckets.inlineTo((owner, delta) => {
      const entry = owner as ZoneEntry
      this.#setHeadBytes(entry, entry.headBytes + delta)
      if (delta > 0) this.#makeRoom(entry)
    })
  }

  get(name: string): ZoneEntry | undefined {
    return this.#zones.get(name)
  }

  get size(): number {
    return this.#zones.size
  }

  /** What is remembered of an evicted zone. */
  known(name: string): KnownZone | undefined {
    return this.#known.get(name)
  }

  /** A feed entry for `zone`: a newer head updates what is remembered, a delete forgets it. */
  heard(zone: string, entry: { op: 'head' | 'delete'; id: string; n: number }): void {
    if (!this.#known.has(zone)) return
    if (entry.op === 'head' && entry.n >= 1) this.#known.set(zone, { id: entry.id, n: entry.n })
    else this.#known.delete(zone)
  }

  /** Forgets every zone (and, with `known`, what is remembered of evicted ones). */
  clear(known: boolean): void {
    for (const e of [...this.#zones.values()]) this.forget(e)
    if (known) this.#known.clear()
  }

  /**
   * Holds `head` as zone `name` (replacing one held), confirmed at `confirmedAt`, with `target`
   * the newest head counter the feed named for it; evicts others for room.
   */
  add(name: string, head: ZoneHead, raw: string, confirmedAt: number, target: number): ZoneEntry {
    const held = this.#heads.hold(head, name)
    const entry = new ZoneEntry(name, held.head, confirmedAt, target, ++this.#stamps)
    // Only a zone without a head keeps its zone key's text (rare: a property of its own).
    if (head.n === 0) entry.raw = raw
    const replaced = this.#zones.get(name)
    if (replaced) this.forget(replaced)
    this.#zones.set(name, entry)
    this.#bytes += HELD_ZONE_BYTES
    // Zones and bucket texts share the cache; the cap bounds the zones' part.
    this.#buckets.charge(HELD_ZONE_BYTES)
    this.#setHeadBytes(entry, (entry.raw?.length ?? 0) + held.bytes)
    this.#makeRoom(entry)
    return entry
  }

  /** Evicts held zones other than `entry` while the zones are past their cap. */
  #makeRoom(entry: ZoneEntry): void {
    while (this.#zones.size > 1 && this.#bytes > this.#capBytes) {
      // Second chance (CLOCK): a zone looked up since the hand last passed goes to the back once;
      // the zone being added is never the one that makes room.
      let victim: ZoneEntry | undefined
      for (const e of this.#zones.values()) {
        if (e === entry) continue
        if (!e.used) {
          victim = e
          break
        }
        e.used = false
        this.#zones.delete(e.name)
        this.#zones.set(e.name, e)
      }
      if (!victim) break
      this.#evict(victim)
    }
  }

  /**
   * Takes a newer head: drops the buckets rewritten since the one held (all of them after a gap).
   * `offered`: a head offered before its versioned key is written (`ZoneEntry.take`).
   */
  apply(entry: ZoneEntry, head: ZoneHead, raw: string, offered = false): void {
    const count = bucketCount(head)
    const since = entry.head.n
    const contiguous = since > 0 && head.changed.some(([c]) => c === since + 1)
    const held = entry.head.bv
    if (count !== bucketCount(entry.head)) this.#buckets.dropAll(entry)
    else if (held && head.bv) this.#dropOtherVersions(entry, held, head.bv)
    else if (!contiguous) this.#buckets.dropAll(entry)
    else
      for (const [c, buckets] of head.changed) {
        if (c <= since) continue
        if (buckets === 'all') {
          this.#buckets.dropAll(entry)
          break
        }
        for (const i of buckets) this.#buckets.drop(entry, i)
      }
    const taken = this.#heads.hold(head, entry.name)
    entry.take(taken.head, ++this.#stamps, offered)
    if (head.n === 0) entry.raw = raw
    else if (entry.raw !== undefined) entry.raw = undefined
    this.#setHeadBytes(entry, (entry.raw?.length ?? 0) + taken.bytes + inlineBytes(entry))
  }

  /** Stops holding a zone (gone, replaced, or evicted): its buckets and charges go with it. */
  forget(entry: ZoneEntry): void {
    entry.gone = true
    this.#buckets.dropAll(entry)
    this.#setHeadBytes(entry, 0)
    if (this.#zones.get(entry.name) === entry) {
      this.#zones.delete(entry.name)
      this.#bytes -= HELD_ZONE_BYTES
      this.#buckets.charge(-HELD_ZONE_BYTES)
    }
  }

  /** Drops the kept buckets whose version the new head changes (the others are the same keys). */
  #dropOtherVersions(entry: ZoneEntry, held: BucketVersions, next: BucketVersions): void {
    for (const i of keptIndexes(entry))
      if (bucketVersion(held, i) !== bucketVersion(next, i)) this.#buckets.drop(entry, i)
  }

  #setHeadBytes(entry: ZoneEntry, bytes: number): void {
    const delta = bytes - entry.headBytes
    if (this.#zones.get(entry.name) === entry) this.#bytes += delta
    entry.headBytes = bytes
    this.#buckets.charge(delta)
  }

  /**
   * Forgets a zone for room. Remembering (with the feed), its id and head counter are kept, and
   * while every bucket is at one version and there is no overlay, its bucket count and version;
   * a zone whose held head the feed has not named (an offered one) is not remembered, and is
   * read again through its slots.
   */
  #evict(entry: ZoneEntry): void {
    this.forget(entry)
    // Only a head the feed named (in KV under its versioned key) is remembered: not one still to
    // be taken, nor one taken from an offer before its key was written.
    if (!this.#remember || entry.head.n < 1 || entry.target !== entry.head.n) return
    if (this.#known.size >= MAX_KNOWN_ZONES) this.#known.delete(this.#known.keys().next().value!)
    const { head } = entry
    const known: KnownZone = { id: head.meta.id, n: head.n }
    const count = bucketCount(head)
    if (head.bv && head.bv.changed.size === 0 && head.overlay.size === 0 && count > 0)
      known.buckets = { count, v: head.bv.base }
    this.#known.set(entry.name, known)
  }
}
