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
  wire: Uint8Array
  cacheControl: string
  deps: [string, number][]
  at: number
}

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

/** The key of a wire query: its bytes after the 2-byte ID, as a one-byte string. */
export function answerKey(bytes: Uint8Array): string {
  let key = ''
  for (let i = 2; i < bytes.length; i += 4096)
    key += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 4096)))
  return key
}

export class AnswerCache {
  readonly #entries = new Map<string, CachedAnswer>()
  hits = 0
  misses = 0

  constructor(
    private readonly view: Confirmer,
    private readonly maxEntries = 20_000,
    private readonly maxAgeMs = 60_000
  ) {}

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
    if (this.#entries.get(key) === hit) this.#entries.delete(key)
    this.misses++
    return null
  }

  #reply(bytes: Uint8Array, hit: CachedAnswer): CachedReply {
    this.hits++
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
    this.#entries.delete(key)
    this.#entries.set(key, { wire, cacheControl, deps, at })
    if (this.#entries.size > this.maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string)
  }

  get size(): number {
    return this.#entries.size
  }
}
