/**
 * @module Encoded answers of recent wire queries, reused while every zone they were read from is
 * unchanged. A query's bytes after its ID are the key (question spelling, flags and EDNS
 * included), so a hit answers with the cached message under the new ID, without decoding,
 * resolving or encoding. Before reuse, each zone the answer depends on is confirmed exactly as
 * a lookup would confirm it (`KvZoneView.confirm`): a newer head for any of them is a miss. Only
 * answers every lookup of which named its zone data (a stamp) are kept; REFUSED, SERVFAIL and
 * uncacheable answers never are.
 */
import type { LookupOptions, ZoneLookup, ZoneView } from '@edgedns/kv-layout'

export type KeepAlive = (promise: Promise<unknown>) => void

export interface Confirmer {
  confirm(zone: string, arrived: number, keepAlive?: KeepAlive): Promise<number | null>
  /** The stamp without waiting; undefined when `confirm` must read first. */
  confirmedStamp(zone: string, arrived: number, keepAlive?: KeepAlive): number | null | undefined
}

type CachedReply = { wire: Uint8Array; cacheControl: string }

interface CachedAnswer {
  key: string
  wire: Uint8Array
  cacheControl: string
  deps: [string, number][]
  at: number
  /** Its slot in the clock ring. */
  slot: number
  /** Reused since the clock hand last passed it (second chance). */
  used: boolean
  size: number
}

/** Bytes an entry costs beyond its key and wire (objects, the deps array, map slot), roughly. */
const ENTRY_OVERHEAD = 200

/** A view that records which zones (and which data of them) a resolution read. */
export interface TracedView {
  view: ZoneView
  /** null once a lookup could not name its data: the answer is not kept. */
  deps: [string, number][] | null
}

/** A view whose lookups may confirm their zone in the background, kept alive past the response. */
export function keptAlive(inner: ZoneView, keepAlive?: KeepAlive): ZoneView {
  return keepAlive
    ? { lookup: (qname, options) => inner.lookup(qname, { ...options, keepAlive }) }
    : inner
}

export function tracing(inner: ZoneView, keepAlive?: KeepAlive): TracedView {
  const view = keptAlive(inner, keepAlive)
  const traced: TracedView = {
    deps: [],
    view: {
      async lookup(qname: string, options?: LookupOptions): Promise<ZoneLookup | null> {
        const found = await view.lookup(qname, options)
        if (!found || found.stamp === undefined) traced.deps = null
        else traced.deps?.push([found.zone.name, found.stamp])
        return found
      },
    },
  }
  return traced
}

/**
 * First character of every key: which kind it is, so a key made from bytes (`answerKey`) and one
 * made from a GET's base64url text (`textAnswerKey`) never collide. Both stay one-byte strings.
 */
const BYTE_KEY_MARK = '\u0000'
const TEXT_KEY_MARK = '\u0001'

/**
 * The key of a wire query from its base64url text (`encoded`, decoding to `bytes`): the mark,
 * byte 2, and the text from character 4 on (characters 0–3 encode bytes 0–2, the ID among them;
 * every later group of four encodes three bytes of its own). Cheaper than `answerKey` when the
 * text is at hand. A text determines its bytes, so one key never stands for two messages; the
 * same bytes spelled two ways (with or without padding) are two entries.
 */
export function textAnswerKey(encoded: string, bytes: Uint8Array): string {
  return TEXT_KEY_MARK + String.fromCharCode(bytes[2]!) + encoded.slice(4)
}

/** Bytes turned into characters per `fromCharCode` call (well under the engine's argument limit). */
const KEY_CHUNK = 4096

/**
 * The key of a wire query: the mark and its bytes after the 2-byte ID, as a one-byte string.
 * `apply` takes the typed array as it is; spreading it would run its iterator (about four times
 * slower per query).
 */
export function answerKey(bytes: Uint8Array): string {
  if (bytes.length <= KEY_CHUNK + 2)
    return BYTE_KEY_MARK + String.fromCharCode.apply(null, bytes.subarray(2) as unknown as number[])
  let key = BYTE_KEY_MARK
  for (let i = 2; i < bytes.length; i += KEY_CHUNK)
    key += String.fromCharCode.apply(
      null,
      bytes.subarray(i, Math.min(bytes.length, i + KEY_CHUNK)) as unknown as number[]
    )
  return key
}

/**
 * Bounded by entries and by bytes. Eviction is CLOCK (second chance) over a ring of slots: O(1)
 * per insertion, and a hot answer survives a pass of the hand. (A Map used as a FIFO queue,
 * evicting `keys().next()`, costs time proportional to the entries deleted before it, tens of
 * microseconds per insertion at 20,000 entries.)
 */
export class AnswerCache {
  readonly #entries = new Map<string, CachedAnswer>()
  readonly #ring: (CachedAnswer | undefined)[]
  #hand = 0
  #bytes = 0
  hits = 0
  misses = 0

  constructor(
    private readonly view: Confirmer,
    maxEntries = 20_000,
    private readonly maxAgeMs = 60_000,
    private readonly maxBytes = 16 * 1024 * 1024
  ) {
    this.#ring = new Array<CachedAnswer | undefined>(Math.max(1, maxEntries)).fill(undefined)
  }

  /**
   * The cached answer to a query with these bytes, under its ID; null on a miss. Synchronous
   * (no promise) when every zone it depends on is confirmed already, the common case under load.
   */
  answer(
    bytes: Uint8Array,
    key: string,
    arrived: number,
    keepAlive?: KeepAlive
  ): CachedReply | null | Promise<CachedReply | null> {
    const hit = this.#entries.get(key)
    if (!hit) {
      this.misses++
      return null
    }
    if (arrived - hit.at > this.maxAgeMs) return this.#miss(key, hit)
    for (let i = 0; i < hit.deps.length; i++) {
      const [zone, stamp] = hit.deps[i]!
      const now = this.view.confirmedStamp(zone, arrived, keepAlive)
      if (now === undefined) return this.#confirmFrom(i, bytes, key, hit, arrived, keepAlive)
      if (now !== stamp) return this.#miss(key, hit)
    }
    return this.#reply(bytes, hit)
  }

  async #confirmFrom(
    from: number,
    bytes: Uint8Array,
    key: string,
    hit: CachedAnswer,
    arrived: number,
    keepAlive?: KeepAlive
  ): Promise<CachedReply | null> {
    for (let i = from; i < hit.deps.length; i++) {
      const [zone, stamp] = hit.deps[i]!
      if ((await this.view.confirm(zone, arrived, keepAlive)) !== stamp) return this.#miss(key, hit)
    }
    return this.#reply(bytes, hit)
  }

  #miss(key: string, hit: CachedAnswer): null {
    if (this.#entries.get(key) === hit) this.#remove(hit)
    this.misses++
    return null
  }

  #reply(bytes: Uint8Array, hit: CachedAnswer): CachedReply {
    this.hits++
    hit.used = true
    const wire = hit.wire.slice()
    wire[0] = bytes[0]!
    wire[1] = bytes[1]!
    return { wire, cacheControl: hit.cacheControl }
  }

  keep(
    key: string,
    wire: Uint8Array,
    cacheControl: string,
    deps: [string, number][],
    at: number
  ): void {
    if (deps.length === 0) return
    const size = key.length + wire.length + cacheControl.length + ENTRY_OVERHEAD
    if (size > this.maxBytes) return
    const old = this.#entries.get(key)
    if (old) this.#remove(old)
    const slot = this.#freeSlot()
    const entry: CachedAnswer = { key, wire, cacheControl, deps, at, slot, used: false, size }
    this.#ring[slot] = entry
    this.#entries.set(key, entry)
    this.#bytes += size
    while (this.#bytes > this.maxBytes) this.#remove(this.#victim())
  }

  /** A slot for a new entry: the first empty or not-recently-used one from the hand (evicted). */
  #freeSlot(): number {
    for (;;) {
      const slot = this.#hand
      this.#hand = (slot + 1) % this.#ring.length
      const held = this.#ring[slot]
      if (!held) return slot
      if (held.used) {
        held.used = false
        continue
      }
      this.#remove(held)
      return slot
    }
  }

  /** The entry the hand evicts next (second chance as in `#freeSlot`). */
  #victim(): CachedAnswer {
    for (;;) {
      const held = this.#ring[this.#hand]
      this.#hand = (this.#hand + 1) % this.#ring.length
      if (!held) continue
      if (held.used) {
        held.used = false
        continue
      }
      return held
    }
  }

  #remove(entry: CachedAnswer): void {
    if (this.#ring[entry.slot] === entry) this.#ring[entry.slot] = undefined
    if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key)
    this.#bytes -= entry.size
  }

  get size(): number {
    return this.#entries.size
  }

  /** Bytes held (keys, encoded answers and a per-entry estimate of the rest). */
  get bytes(): number {
    return this.#bytes
  }
}
