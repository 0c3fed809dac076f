/**
 * @module Encoded answers of recent wire queries, reused while every zone they were read from is
 * unchanged. A query's bytes after its ID are the key (question spelling, flags and EDNS
 * included), so a hit answers with the cached message under the new ID, without decoding,
 * resolving or encoding. Before reuse, each zone the answer depends on is confirmed exactly as
 * a lookup would confirm it (`KvZoneView.confirm`): a newer head for any of them is a miss. Only
 * answers every lookup of which named its zone data (a stamp) are kept; REFUSED, SERVFAIL and
 * uncacheable answers never are. A query's answer is kept the second time it misses (a
 * doorkeeper), and the cache is bounded by entries and by the bytes its entries really hold.
 */
import type { LookupOptions, ZoneLookup, ZoneView } from '@edgedns/kv-layout'

export type KeepAlive = (promise: Promise<unknown>) => void

export interface Confirmer {
  confirm(zone: string, arrived: number, keepAlive?: KeepAlive): Promise<number | null>
  /** The stamp without waiting; undefined when `confirm` must read first. */
  confirmedStamp(zone: string, arrived: number, keepAlive?: KeepAlive): number | null | undefined
}

type CachedReply = { wire: Uint8Array; cacheControl: string }

/**
 * One kept answer, laid out for memory: the encoded message as a one-byte string (one character
 * per byte) instead of a typed array, whose buffer and its bookkeeping cost several times the
 * bytes; the first zone it depends on inline (most answers read one zone).
 */
interface CachedAnswer {
  key: string
  wire: string
  cacheControl: string
  zone: string
  stamp: number
  /** Zones after the first (an answer that left its zone: a CNAME target elsewhere). */
  more: [string, number][] | undefined
  at: number
  /** Its slot in the clock ring. */
  slot: number
  /** Reused since the clock hand last passed it (second chance). */
  used: boolean
  size: number
}

/**
 * Bytes an entry costs beyond the characters of its key and answer: the entry object, two string
 * headers, its `Map` slot (with the slack a map keeps under churn) and ring slot. Set from the
 * worst V8 measurement (`doh-miss-profile.mjs` run with `--expose-gc` prints what the cache
 * holds against what it counts), so the count is not below what is held.
 */
const ENTRY_OVERHEAD = 448
/** Each zone an answer depends on beyond the first (a pair array and its slot). */
const DEP_OVERHEAD = 72

/**
 * Doorkeeper: a query is kept only when its key was missed once before, recently. Under DNS's
 * long-tailed traffic most keys are asked once in a while; keeping each of them evicts answers
 * that are asked again. One bit per hash slot (`DOOR_BITS_PER_MARK` slots for each mark a window
 * holds, so few keys share a slot); every slot is cleared once `DOOR_WINDOW` times as many keys
 * have been marked as the cache holds entries, so "recently" spans that many misses. A wider
 * window keeps more of the tail, and a narrower one is slower to fill a fresh cache.
 */
const DOOR_BITS_PER_MARK = 4
const DOOR_WINDOW = 4

/** FNV-1a over the key's characters (one byte each), for the doorkeeper's slot. */
function keyHash(key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * A copy of a key that shares no storage with the text it was cut from: a key sliced out of a
 * request's URL would otherwise keep the whole URL alive for as long as the entry.
 */
const ownKey = (key: string): string => (key + ' ').slice(0, -1)

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

/** One-byte string of a message: one character per byte. */
function byteString(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += KEY_CHUNK)
    s += String.fromCharCode.apply(
      null,
      bytes.subarray(i, Math.min(bytes.length, i + KEY_CHUNK)) as unknown as number[]
    )
  return s
}

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
  readonly #door: Uint32Array | undefined
  readonly #cacheControls = new Map<string, string>()
  readonly #fixed: number
  #marked = 0
  #hand = 0
  #bytes = 0
  hits = 0
  misses = 0

  constructor(
    private readonly view: Confirmer,
    maxEntries = 20_000,
    private readonly maxAgeMs = 60_000,
    private readonly maxBytes = 16 * 1024 * 1024,
    /** Keep an answer the first time its query misses (no doorkeeper). */
    admitFirst = false
  ) {
    const slots = Math.max(1, Math.floor(maxEntries))
    this.#ring = new Array<CachedAnswer | undefined>(slots).fill(undefined)
    // A power of two of at least 1,024 bits, so a slot is the hash's low bits.
    const bits = 2 ** Math.max(10, Math.ceil(Math.log2(slots * DOOR_WINDOW * DOOR_BITS_PER_MARK)))
    this.#door = admitFirst ? undefined : new Uint32Array(bits / 32)
    // What the cache holds before its first entry: the ring's slots and the doorkeeper's bits.
    this.#fixed = this.#ring.length * 8 + (this.#door?.byteLength ?? 0)
    this.#bytes = this.#fixed
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
    const now = this.view.confirmedStamp(hit.zone, arrived, keepAlive)
    if (now === undefined) return this.#confirmFrom(-1, bytes, key, hit, arrived, keepAlive)
    if (now !== hit.stamp) return this.#miss(key, hit)
    const more = hit.more
    if (more)
      for (let i = 0; i < more.length; i++) {
        const [zone, stamp] = more[i]!
        const then = this.view.confirmedStamp(zone, arrived, keepAlive)
        if (then === undefined) return this.#confirmFrom(i, bytes, key, hit, arrived, keepAlive)
        if (then !== stamp) return this.#miss(key, hit)
      }
    return this.#reply(bytes, hit)
  }

  /** Confirms the zones from `from` on (-1: the first zone, then every other), waiting on reads. */
  async #confirmFrom(
    from: number,
    bytes: Uint8Array,
    key: string,
    hit: CachedAnswer,
    arrived: number,
    keepAlive?: KeepAlive
  ): Promise<CachedReply | null> {
    if (from < 0 && (await this.view.confirm(hit.zone, arrived, keepAlive)) !== hit.stamp)
      return this.#miss(key, hit)
    const more = hit.more ?? []
    for (let i = Math.max(0, from); i < more.length; i++) {
      const [zone, stamp] = more[i]!
      if ((await this.view.confirm(zone, arrived, keepAlive)) !== stamp) return this.#miss(key, hit)
    }
    return this.#reply(bytes, hit)
  }

  #miss(key: string, hit: CachedAnswer): null {
    if (this.#entries.get(key) === hit) this.#remove(hit)
    // Its key has missed before: the fresh answer is kept at once, not after one more miss.
    this.#mark(key)
    this.misses++
    return null
  }

  #reply(bytes: Uint8Array, hit: CachedAnswer): CachedReply {
    this.hits++
    hit.used = true
    const text = hit.wire
    const wire = new Uint8Array(text.length)
    wire[0] = bytes[0]!
    wire[1] = bytes[1]!
    for (let i = 2; i < text.length; i++) wire[i] = text.charCodeAt(i)
    return { wire, cacheControl: hit.cacheControl }
  }

  /**
   * Keeps the answer to a query with this key, read from `deps` (zone and stamp each), unless
   * the doorkeeper has not seen the key miss recently (only with `admitFirst` off).
   */
  keep(
    key: string,
    wire: Uint8Array,
    cacheControl: string,
    deps: [string, number][],
    at: number
  ): void {
    if (deps.length === 0) return
    const size = key.length + wire.length + ENTRY_OVERHEAD + (deps.length - 1) * DEP_OVERHEAD
    if (this.#fixed + size > this.maxBytes) return
    // First miss in the window: marked, not kept.
    if (this.#door && this.#mark(key)) return
    const old = this.#entries.get(key)
    if (old) this.#remove(old)
    const slot = this.#freeSlot()
    const [zone, stamp] = deps[0]!
    const entry: CachedAnswer = {
      key: ownKey(key),
      wire: byteString(wire),
      cacheControl: this.#intern(cacheControl),
      zone,
      stamp,
      more: deps.length > 1 ? deps.slice(1) : undefined,
      at,
      slot,
      used: false,
      size,
    }
    this.#ring[slot] = entry
    this.#entries.set(entry.key, entry)
    this.#bytes += size
    while (this.#bytes > this.maxBytes && this.#entries.size > 0) this.#remove(this.#victim())
  }

  /** Marks the key in the doorkeeper; true when it was not marked yet (or there is none). */
  #mark(key: string): boolean {
    const door = this.#door
    if (!door) return true
    const h = keyHash(key) & (door.length * 32 - 1)
    const bit = 1 << (h & 31)
    const word = h >>> 5
    if ((door[word]! & bit) !== 0) return false
    door[word]! |= bit
    if (++this.#marked >= this.#ring.length * DOOR_WINDOW) {
      door.fill(0)
      this.#marked = 0
    }
    return true
  }

  /** One string per distinct Cache-Control value (a handful: the TTLs in use). */
  #intern(value: string): string {
    const known = this.#cacheControls.get(value)
    if (known !== undefined) return known
    if (this.#cacheControls.size < 256) this.#cacheControls.set(value, value)
    return value
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

  /** Bytes held: the ring and doorkeeper, and each entry's characters plus its measured overhead. */
  get bytes(): number {
    return this.#bytes
  }
}
