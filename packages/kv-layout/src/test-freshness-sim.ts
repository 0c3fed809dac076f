/**
 * @module Test support: a warm location under the production KV model, on a virtual clock. One
 * `KvZoneView` (an isolate) reads through one location of a `ProductionKvModel`; every tick it
 * looks up the probes and witnesses (a steady query load, background confirmations included),
 * while scheduled writes change central storage the way the builder writes it. A run records
 * what each probe answered at each tick and every tick at which a witness — data that exists
 * throughout — was not answered (a null zone, a missing name or record: REFUSED, NXDOMAIN or
 * NODATA) or failed (SERVFAIL).
 *
 * With `feed`, the isolate polls an in-memory zone-change feed (`test-feed.ts`) on the same clock,
 * and `zone()` writes zones in layout format 4, announcing each head to it.
 */
import { FeedClient } from '@edgedns/zone-feed'
import { IMMUTABLE_CACHE_TTL_S, type KvBulkReader } from './kv-reads.ts'
import { KvZoneView } from './kv-zone-view.ts'
import type { KvZoneViewOptions } from './zone-view-options.ts'
import { TestFeed } from './test-feed.ts'
import { KV_DEFAULT_CACHE_TTL_S, ProductionKvModel, type KvLocation } from './test-production-kv.ts'
import { ZoneWriter } from './test-zone-writer.ts'
import type { NodeData, ZoneLookup } from './types.ts'

/** What a probe's answer shows: `new` once the change is visible, anything else before. */
export type Classify = (answer: ZoneLookup | null) => string

export interface Observation {
  t: number
  state: string
}

export interface SimTrace {
  /** Per probe, what it answered at every tick. */
  probes: Observation[][]
  /** Ticks at which a witness was not answered with its data (or failed). */
  violations: string[]
  /** Lookups that threw (SERVFAIL upstream), probes and witnesses together. */
  errors: number
}

/**
 * How long after `since` a probe answers `new` for good: the time of the first observation from
 * which every later one is `new`, minus `since`; Infinity when its last answer is not `new`.
 */
export function settledAfter(trace: Observation[], since: number): number {
  let settled = Number.POSITIVE_INFINITY
  for (const o of trace) {
    if (o.t < since) continue
    if (o.state !== 'new') settled = Number.POSITIVE_INFINITY
    else if (settled === Number.POSITIVE_INFINITY) settled = o.t
  }
  return settled - since
}

/** Times a probe went back from `new` to something else after `since`. */
export function flipsBack(trace: Observation[], since: number): number {
  let flips = 0
  let prev = ''
  for (const o of trace) {
    if (o.t < since) continue
    if (prev === 'new' && o.state !== 'new') flips++
    prev = o.state
  }
  return flips
}

export class FreshnessSim {
  t = 0
  readonly kv = new ProductionKvModel({ now: () => this.t })
  readonly view: KvZoneView
  /** The isolate's location (its KV counters). */
  readonly location: KvLocation
  /** The feed, when the isolate has one. */
  readonly feed: TestFeed | undefined
  readonly feedClient: FeedClient | undefined
  /** Per key kind (`z`, `h`, `o`, `b`: the key's first field), the edge cache times (s) the view's reads got. */
  readonly edgeTtls = new Map<string, Set<number>>()
  readonly #tickMs: number
  readonly #events: { at: number; run: () => void }[] = []
  readonly #probes: { qname: string; classify: Classify }[] = []
  readonly #witnesses: { qname: string; holds: (answer: ZoneLookup | null) => boolean }[] = []

  /** `view`: the isolate's settings (the clock is the simulation's); `tickMs`: time between query rounds. */
  constructor(options: {
    view: Omit<KvZoneViewOptions, 'now' | 'feed'>
    tickMs: number
    location?: string
    /** The isolate polls an in-memory feed. */
    feed?: boolean
  }) {
    this.#tickMs = options.tickMs
    const location = this.kv.location(options.location ?? 'edge')
    this.location = location
    const reader: KvBulkReader = {
      get: (keys, readOptions) => {
        const ttl = readOptions.cacheTtl ?? KV_DEFAULT_CACHE_TTL_S
        for (const key of keys) {
          const kind = key.slice(0, key.indexOf(':'))
          let ttls = this.edgeTtls.get(kind)
          if (!ttls) this.edgeTtls.set(kind, (ttls = new Set()))
          ttls.add(ttl)
        }
        return location.get(keys, readOptions)
      },
    }
    const now = () => this.t
    this.feed = options.feed ? new TestFeed(this.kv, now) : undefined
    this.feedClient = this.feed
      ? new FeedClient(this.feed, {
          now,
          loadIndex: async (key) => {
            const value = await location.get(key, {
              type: 'arrayBuffer',
              cacheTtl: IMMUTABLE_CACHE_TTL_S,
            })
            return value === null ? null : new Uint8Array(value as ArrayBuffer)
          },
        })
      : undefined
    this.view = new KvZoneView(reader, {
      ...options.view,
      ...(this.feedClient ? { feed: this.feedClient } : {}),
      now,
    })
  }

  /** A zone written in layout format 4, its heads announced to the feed (if any), retired on this clock. */
  zone(
    name: string,
    nodes: Record<string, NodeData> | Iterable<readonly [string, NodeData]>,
    buckets = 16,
    id?: string,
    firstHead?: number
  ): ZoneWriter {
    return new ZoneWriter(this.kv, name, nodes, buckets, id, {
      versioned: true,
      ...(firstHead === undefined ? {} : { firstHead }),
      ...(this.feed ? { feed: this.feed } : {}),
      now: () => this.t,
    })
  }

  /** Runs `write` against central storage at virtual time `at` (before that tick's queries). */
  at(at: number, write: () => void): void {
    this.#events.push({ at, run: write })
    this.#events.sort((x, y) => x.at - y.at)
  }

  /** A name looked up every tick whose answers are recorded; returns its index in the trace. */
  probe(qname: string, classify: Classify): number {
    return this.#probes.push({ qname, classify }) - 1
  }

  /** A name whose data exists throughout: every tick's answer must satisfy `holds`. */
  witness(qname: string, holds: (answer: ZoneLookup | null) => boolean): void {
    this.#witnesses.push({ qname, holds })
  }

  /** Queries every tick from the current time until `until` (ms), applying writes as they fall due. */
  async run(until: number): Promise<SimTrace> {
    const trace: SimTrace = { probes: this.#probes.map(() => []), violations: [], errors: 0 }
    for (; this.t <= until; this.t += this.#tickMs) {
      while (this.#events.length > 0 && this.#events[0]!.at <= this.t) this.#events.shift()!.run()
      const pending: Promise<unknown>[] = []
      const keepAlive = (p: Promise<unknown>) => void pending.push(p)
      const ask = async (qname: string): Promise<ZoneLookup | null | 'error'> => {
        try {
          return await this.view.lookup(qname, { keepAlive })
        } catch {
          trace.errors++
          return 'error'
        }
      }
      for (const [i, p] of this.#probes.entries()) {
        const answer = await ask(p.qname)
        trace.probes[i]!.push({
          t: this.t,
          state: answer === 'error' ? 'error' : p.classify(answer),
        })
      }
      for (const w of this.#witnesses) {
        const answer = await ask(w.qname)
        if (answer === 'error' || !w.holds(answer))
          trace.violations.push(
            `${this.t} ms: ${w.qname} ${answer === 'error' ? 'failed' : 'not answered'}`
          )
      }
      await Promise.all(pending)
    }
    return trace
  }
}
