/**
 * How long a change takes to show at a warm location under the production KV model
 * (`test-production-kv.ts`: per-location edge caches keeping values and misses for their
 * `cacheTtl`), with what a deployed isolate uses: `viewOptions` of an environment without
 * settings, and the `cacheTtl` values the view passes, recorded per key kind as it reads.
 *
 * Each scenario lets an isolate answer for a minute, writes the change the way the builder writes
 * it, and goes on querying every tick; the change is written at phases spread over a minute (the
 * edge caches' cycle), and the worst case is compared with the bound derived from the settings:
 * at most the bound, and near it (the model does reach it). Witnesses, data that exists
 * throughout, must be answered at every query: never REFUSED, NXDOMAIN, NODATA or SERVFAIL.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_ABSENT_TTL_MS } from '../../../packages/kv-layout/src/kv-zone-view.ts'
import {
  FreshnessSim,
  flipsBack,
  settledAfter,
} from '../../../packages/kv-layout/src/test-freshness-sim.ts'
import { a, ZoneWriter } from '../../../packages/kv-layout/src/test-zone-writer.ts'
import type { NodeData, ZoneLookup } from '../../../packages/kv-layout/src/types.ts'
import { viewOptions } from './view.ts'

/** The view's settings in a deployment that sets none. */
const DEPLOYED = viewOptions({ ZONES_KV: {} as KVNamespace })
/** A warm location: the probes and witnesses are asked this often. */
const TICK_MS = 100
/** How long the isolate answers before the change, and how long it is watched after. */
const WARM_MS = 60_000
const WATCH_MS = 150_000
/** The change is written at these offsets after the warm-up (one run each). */
const phases = (stepMs: number) =>
  Array.from({ length: Math.ceil(60_000 / stepMs) }, (_, i) => i * stepMs)

interface Outcome {
  /** Worst time from the change's write to the new data answered for good. */
  worst: number
  /** Answers that went back from the new data to the old, over all runs. */
  flips: number
  violations: string[]
  errors: number
  /** Longest edge cache time (ms) the view's reads got, per key kind. */
  edgeTtlMs: (kind: string) => number
}

/** Runs the scenario once per phase; `build` schedules its writes from `W` (the change's time). */
async function sweep(
  stepMs: number,
  build: (sim: FreshnessSim, W: number) => void
): Promise<Outcome> {
  const out: Outcome = {
    worst: -1,
    flips: 0,
    violations: [],
    errors: 0,
    edgeTtlMs: () => 0,
  }
  const ttls = new Map<string, number>()
  for (const offset of phases(stepMs)) {
    const sim = new FreshnessSim({ view: DEPLOYED, tickMs: TICK_MS })
    const W = WARM_MS + offset
    build(sim, W)
    const trace = await sim.run(W + WATCH_MS)
    out.worst = Math.max(out.worst, ...trace.probes.map((p) => settledAfter(p, W)))
    out.flips += trace.probes.reduce((sum, p) => sum + flipsBack(p, W), 0)
    out.violations.push(...trace.violations.map((v) => `write at ${W} ms: ${v}`))
    out.errors += trace.errors
    for (const [kind, set] of sim.edgeTtls) ttls.set(kind, Math.max(ttls.get(kind) ?? 0, ...set))
  }
  out.edgeTtlMs = (kind) => {
    const s = ttls.get(kind)
    if (s === undefined) throw new Error(`no read of ${kind}: keys`)
    return s * 1000
  }
  return out
}

/** Edge cache time of the revalidation signal: the zone key and the head slots. */
const signalMs = (o: Outcome) => Math.max(o.edgeTtlMs('z'), o.edgeTtlMs('h'))

/**
 * A change a head carries (in its overlay or metadata) or a zone gone: the next head's slot may
 * be an edge copy read just before the write, kept for the signal's cache time; a confirmation
 * read starts at most `revalidateMs` after that copy lapses.
 */
const headBound = (o: Outcome) => signalMs(o) + DEPLOYED.revalidateMs!

/**
 * A change readers get from a bucket read again (its name left the overlay once the bucket was
 * rewritten; the head saying so is written `foldMs` after the change): that head shows within
 * the head bound, and the bucket read again may be an edge copy from before the change; the
 * isolate keeps what it read for `bucketMaxAgeMs`, which outlasts that copy.
 */
const bucketBound = (o: Outcome, foldMs: number) => {
  expect(
    DEPLOYED.bucketMaxAgeMs,
    'the bound assumes an isolate keeps a bucket at least as long as the edge keeps its copy'
  ).toBeGreaterThanOrEqual(o.edgeTtlMs('b'))
  return headBound(o) + foldMs + DEPLOYED.bucketMaxAgeMs!
}

/** A zone created after the location read its keys as misses, kept for the signal's cache time. */
const createdBound = (o: Outcome) => signalMs(o) + DEFAULT_ABSENT_TTL_MS

/** Within the bound, and near it: the gap is at most a confirmation interval, a phase step and a tick (plus the fold). */
function expectBound(o: Outcome, bound: number, stepMs: number, foldMs = 0): void {
  expect(o.violations.slice(0, 5)).toEqual([])
  expect(o.errors).toBe(0)
  expect(o.worst).toBeLessThanOrEqual(bound)
  expect(o.worst).toBeGreaterThan(bound - DEPLOYED.revalidateMs! - stepMs - TICK_MS - foldMs)
}

const rdata = (r: ZoneLookup | null, name: string): string | undefined =>
  r?.nodes.get(name)?.sets.A?.rdata[0]

/** Another zone, answered throughout. */
function otherZone(sim: FreshnessSim): void {
  new ZoneWriter(sim.kv, 'other.test', { 'www.other.test': a('198.51.100.1') }, 16, 'd'.repeat(32))
  sim.witness('www.other.test', (r) => rdata(r, 'www.other.test') === '198.51.100.1')
}

/**
 * example.com with www, x and y, signed with one key; `lapped`: past its eighth head (confirmed by
 * reading one slot), else a young zone (the zone key and the next two slots). x and y are
 * witnesses unless the zone is to be deleted.
 */
function exampleZone(sim: FreshnessSim, lapped: boolean, witnesses = true): ZoneWriter {
  otherZone(sim)
  const zone = new ZoneWriter(sim.kv, 'example.com', {
    'www.example.com': a('192.0.2.1'),
    'x.example.com': a('192.0.2.2'),
    'y.example.com': a('192.0.2.3'),
  })
  zone.meta = { ...zone.meta, dnssec: { keys: [{ tag: 1, publicKey: 'pk1', sealed: 'sk1' }] } }
  zone.head()
  zone.writeZoneKey()
  if (lapped) for (let i = 0; i < 8; i++) zone.head()
  if (witnesses)
    for (const [name, ip] of [
      ['x.example.com', '192.0.2.2'],
      ['y.example.com', '192.0.2.3'],
    ] as const)
      sim.witness(name, (r) => rdata(r, name) === ip)
  return zone
}

/** A per-record pass changing one name: its head (overlay), then its bucket rewritten. */
function changeName(zone: ZoneWriter, name: string, node: NodeData, folds: number[] = []): void {
  zone.nodes.set(name, node)
  zone.head({ overlay: [[name, node]], buckets: folds })
  zone.writeBucket(zone.bucket(name))
}

const STEP_MS = 700

describe(
  'freshness at a warm location under the production KV model, deployed settings',
  { timeout: 120_000 },
  () => {
    for (const lapped of [false, true])
      it(`a one-record change (not apex) shows within the head bound, and stays (${lapped ? 'zone past its eighth head' : 'young zone'})`, async () => {
        const o = await sweep(STEP_MS, (sim, W) => {
          const zone = exampleZone(sim, lapped)
          sim.probe('www.example.com', (r) =>
            rdata(r, 'www.example.com') === '192.0.2.50' ? 'new' : 'old'
          )
          sim.at(W, () => changeName(zone, 'www.example.com', a('192.0.2.50')))
        })
        expectBound(o, headBound(o), STEP_MS)
        expect(o.flips).toBe(0)
      })

    it('a one-record change (not apex) that the next pass, 200 ms later, folds into its bucket shows within the bucket bound', async () => {
      const foldMs = 200
      const o = await sweep(STEP_MS, (sim, W) => {
        const zone = exampleZone(sim, true)
        sim.probe('www.example.com', (r) =>
          rdata(r, 'www.example.com') === '192.0.2.50' ? 'new' : 'old'
        )
        sim.at(W, () => changeName(zone, 'www.example.com', a('192.0.2.50')))
        sim.at(W + foldMs, () =>
          changeName(zone, 'q.example.com', a('192.0.2.51'), [zone.bucket('www.example.com')])
        )
      })
      expectBound(o, bucketBound(o, foldMs), STEP_MS, foldMs)
    })

    it('an apex record change shows within the head bound', async () => {
      const o = await sweep(STEP_MS, (sim, W) => {
        const zone = exampleZone(sim, true)
        sim.probe('example.com', (r) =>
          r?.zone.apex.sets.A?.rdata[0] === '192.0.2.77' ? 'new' : 'old'
        )
        sim.at(W, () => {
          zone.meta = {
            ...zone.meta,
            apex: {
              v: 1,
              sets: { ...zone.meta.apex.sets, A: { ttl: 300, rdata: ['192.0.2.77'] } },
            },
          }
          zone.head()
          zone.writeZoneKey()
        })
      })
      expectBound(o, headBound(o), STEP_MS)
      expect(o.flips).toBe(0)
    })

    it('a DNSSEC key rollover (a second key in the zone metadata) shows within the head bound', async () => {
      const o = await sweep(STEP_MS, (sim, W) => {
        const zone = exampleZone(sim, true)
        sim.probe('example.com', (r) =>
          r?.zone.dnssec?.keys.map((k) => k.tag).join() === '1,2' ? 'new' : 'old'
        )
        sim.at(W, () => {
          const keys = [...zone.meta.dnssec!.keys, { tag: 2, publicKey: 'pk2', sealed: 'sk2' }]
          zone.meta = { ...zone.meta, dnssec: { keys } }
          zone.head()
          zone.writeZoneKey()
        })
      })
      expectBound(o, headBound(o), STEP_MS)
      expect(o.flips).toBe(0)
    })

    it('a deleted zone stops answering within the head bound', async () => {
      const o = await sweep(STEP_MS, (sim, W) => {
        const zone = exampleZone(sim, true, false)
        sim.probe('www.example.com', (r) => (r === null ? 'new' : 'old'))
        sim.at(W, () => zone.deleteAll())
      })
      expectBound(o, headBound(o), STEP_MS)
    })

    it('a new zone, asked for (REFUSED) before it existed, answers within the signal cache time and the absent-name memory', async () => {
      const o = await sweep(STEP_MS, (sim, W) => {
        otherZone(sim)
        sim.probe('www.new.test', (r) =>
          rdata(r, 'www.new.test') === '192.0.2.9' ? 'new' : r === null ? 'refused' : 'wrong'
        )
        sim.at(
          W,
          () =>
            new ZoneWriter(
              sim.kv,
              'new.test',
              { 'www.new.test': a('192.0.2.9') },
              16,
              'c'.repeat(32)
            )
        )
      })
      expectBound(o, createdBound(o), STEP_MS)
      expect(o.flips).toBe(0)
    })

    it('a 10,000-change batch settles within the bucket bound; until then a name may show its new data, then its old data again', async () => {
      const step = 1000
      const foldMs = 1000
      const ip = (i: number, v: number) => `10.${v}.${i >> 8}.${i & 255}`
      const sample = [0, 1234, 2500, 4000, 5555, 7000, 8888, 9999]
      const o = await sweep(step, (sim, W) => {
        otherZone(sim)
        const nodes: [string, NodeData][] = []
        for (let i = 0; i < 10_100; i++) nodes.push([`h${i}.big.test`, a(ip(i, 0))])
        const zone = new ZoneWriter(sim.kv, 'big.test', nodes, 256, 'b'.repeat(32))
        for (let i = 0; i < 8; i++) zone.head()
        for (const i of sample)
          sim.probe(`h${i}.big.test`, (r) =>
            rdata(r, `h${i}.big.test`) === ip(i, 9) ? 'new' : 'old'
          )
        for (const i of [10_000, 10_099])
          sim.witness(`h${i}.big.test`, (r) => rdata(r, `h${i}.big.test`) === ip(i, 0))
        // One pass: its head (the overlay in a key of its own), then every bucket rewritten; the
        // folding head naming them follows.
        sim.at(W, () => {
          const overlay: [string, NodeData][] = []
          for (let i = 0; i < 10_000; i++) {
            const node = a(ip(i, 9))
            zone.nodes.set(`h${i}.big.test`, node)
            overlay.push([`h${i}.big.test`, node])
          }
          zone.head({ overlay })
          zone.writeAllBuckets(256)
        })
        sim.at(W + foldMs, () => zone.head({ buckets: Array.from({ length: 256 }, (_, i) => i) }))
      })
      expect(o.edgeTtlMs('o')).toBe(signalMs(o))
      expectBound(o, bucketBound(o, foldMs), step, foldMs)
      expect(o.flips).toBeGreaterThan(0)
    })
  }
)
