/**
 * @module DoH over many hosted zones and over names outside every zone (issue "Freshness at
 * platform scale"), each on a stack of its own with the deployed read-path settings (no
 * `REVALIDATE_MS` or bucket age override: what freshness costs in production is the point).
 *
 * The zones (bench/lib/hosted-zones.mjs: `z<n>.hosted.bench`, 1–8 A records each) are written
 * before the runtime starts: their KV images straight into the persisted store
 * (bench/lib/kv-seed.mjs), their D1 rows (zone, records, change log, directory, marked built) by
 * SQL once it runs (bench/lib/d1-zone-seed.mjs `seedInD1`). Then one run of the cron's maintenance, which
 * reconciles the zone feed with D1 where the feed exists (every served zone, newest head unknown:
 * readers take the zone's head slots), as it would after such an import.
 *
 * - `zones-10k`: queries with zones drawn Zipf (s = 1) over 10,000 zones and names within each zone
 *   drawn Zipf, warm (a pass that offers the zones in turn, then the mix to its steady state); then
 *   random names under no hosted zone (bench/lib/namegen.mjs `outside`).
 * - `zones-100k`: the same over 100,000 zones; the pass offers every zone once (at most 400 s: a
 *   zone's first read takes its zone key and head slots, a few hundred zones a second locally)
 *   and the isolate holds as many as its zone cache keeps.
 *
 * Each figure: saturation throughput beside the empty worker fed the same requests, and the DoH
 * worker's `/stats` counters around the measured runs: KV calls and keys per query, feed calls
 * per query (`feedCalls`, where the view counts them), zones held.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { MAX_RECORDS, zonesEntries } from './lib/hosted-zones.mjs'
import { writeKvStore } from './lib/kv-seed.mjs'
import {
  dohStats,
  measureSaturation,
  measureTarget,
  probeGen,
  statsDelta,
  warmUp,
} from './lib/dohload.mjs'
import { seedInD1 } from './lib/d1-zone-seed.mjs'

const PARENT = 'hosted.bench'

/** Zones of each section (quick runs: a fifth). */
export const zonesOf = (section, quick) =>
  (section === 'zones-100k' ? 100_000 : 10_000) / (quick ? 5 : 1)

/** Warm-up: 3 s runs until a run reads almost nothing from KV, or this many seconds. */
const WARM_MAX_S = 30
/** A warm run reads fewer KV keys per query than this (cold zones, buckets, revalidations). */
const WARM_KEYS_PER_QUERY = 0.01

/** Stack options: the zones' KV images written into a fresh state directory first. */
export function zonesStack(section) {
  return async ({ quick, log }) => {
    const zones = zonesOf(section, quick)
    const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-zones-'))
    const t0 = performance.now()
    const written = await writeKvStore(
      path.join(dir, 'state'),
      zonesEntries(0, zones, PARENT, MAX_RECORDS)
    )
    log(
      `${section}: ${written.toLocaleString('en-US')} KV values of ${zones.toLocaleString('en-US')} zones written into the store in ${((performance.now() - t0) / 1000).toFixed(1)} s`
    )
    return { dir, shards: 1, readSettings: 'deployed', removeInBackground: true }
  }
}

/** D1 rows of the zones (one account), then the cron's maintenance once (the feed learns them). */
async function seedZones({ api, stack, log }, zones) {
  const t0 = performance.now()
  const account = (await api.call('POST', '/accounts', { name: 'hosted-zones' })).result
  const records = await seedInD1(stack.db, stack.db, account.id, 0, zones, log, {
    parent: PARENT,
    maxRecords: MAX_RECORDS,
  })
  const d1Ms = performance.now() - t0
  const c0 = performance.now()
  await stack.cron()
  const cronMs = performance.now() - c0
  log(
    `zones: ${zones.toLocaleString('en-US')} zones (${records.toLocaleString('en-US')} records) into D1 in ${(d1Ms / 1000).toFixed(1)} s; the cron's maintenance ran in ${(cronMs / 1000).toFixed(1)} s`
  )
  return { zones, records, d1Ms, cronMs }
}

const plan = (quick) => ({ reps: quick ? 1 : 2, duration: quick ? 3 : 4, connections: 32 })

/** KV and feed calls per query between two /stats snapshots (statsDelta plus `feedCalls`). */
function counters(before, after, loadSeconds) {
  const kv = statsDelta(before, after, loadSeconds)
  const feedCalls = after.feedCalls === undefined ? null : after.feedCalls - (before.feedCalls ?? 0)
  return {
    ...kv,
    feedCalls,
    feedCallsPerQuery: feedCalls === null || !kv.queries ? null : feedCalls / kv.queries,
    callsPerQuery: kv.queries ? (kv.kvCalls + (feedCalls ?? 0)) / kv.queries : null,
  }
}

/** 3 s runs of `gen` until one reads fewer than WARM_KEYS_PER_QUERY keys per query, or `maxS`. */
async function warm(stack, gen, maxS, log, label) {
  const t0 = performance.now()
  let last = null
  for (let run = 0; performance.now() - t0 < maxS * 1000; run++) {
    const before = await dohStats(stack.dohUrl)
    await warmUp({ url: stack.dohUrl, gen, duration: 3, seed: 201 + run })
    last = statsDelta(before, await dohStats(stack.dohUrl), 3)
    if (last.queries > 0 && last.kvKeys / last.queries < WARM_KEYS_PER_QUERY) break
  }
  const seconds = (performance.now() - t0) / 1000
  log(
    `${label}: warm-up ${seconds.toFixed(0)} s, last run ${last?.kvKeysPerLookup?.toFixed(3)} KV keys per query, ${last?.zones?.toLocaleString('en-US')} zones held`
  )
  return { seconds, lastKeysPerQuery: last?.kvKeysPerLookup ?? null, zones: last?.zones ?? null }
}

/** Saturation of the DoH worker on `gen` with its counters, and of the empty worker on the same requests. */
async function measure(stack, gen, quick, log, label) {
  const p = plan(quick)
  const before = await dohStats(stack.dohUrl)
  const doh = await measureSaturation({ url: stack.dohUrl, gen, plan: p })
  const after = await dohStats(stack.dohUrl)
  const empty = await measureSaturation({ url: stack.emptyUrl, gen, plan: p })
  const c = counters(before, after, p.reps * p.duration)
  const ratio = doh.rps.median / empty.rps.median
  log(
    `${label}: ${Math.round(doh.rps.median)} q/s, ${ratio.toFixed(2)} of the empty worker (${Math.round(empty.rps.median)} req/s); ${c.kvCallsPerLookup?.toFixed(3)} KV calls / ${c.kvKeysPerLookup?.toFixed(3)} keys per query, feed calls per query ${c.feedCallsPerQuery?.toFixed(4) ?? '– (not counted)'}, ${c.revalidationsPerSecond?.toFixed(0)} revalidations/s, ${c.zones?.toLocaleString('en-US')} zones held`
  )
  return { sat: doh, empty, ratio, kv: c, plan: p }
}

const zonesGen = (zones, zoneKind = 'zipf', start = 0) => ({
  kind: 'zones',
  parent: PARENT,
  zones,
  maxRecords: MAX_RECORDS,
  s: 1,
  zoneKind,
  start,
})

/**
 * Queries the zones in turn (`www` of zone 0, 1, 2, …) for at most `seconds`, so that the isolate
 * holds as many as the pass reaches and its cache keeps: the state of an isolate that has served
 * a long Zipf tail, reached without waiting for the tail's rare queries.
 */
async function offerEveryZone(stack, zones, seconds, log, label) {
  const t0 = performance.now()
  const before = await dohStats(stack.dohUrl)
  // Runs of at most 10 s, each going on from where the last one's lookups ended, until they
  // reach the zone count (or `seconds` pass).
  for (let run = 0, offered = 0; performance.now() - t0 < seconds * 1000; run++) {
    await warmUp({
      url: stack.dohUrl,
      gen: zonesGen(zones, 'sequence', offered % zones),
      duration: Math.min(10, seconds),
      seed: 401 + run,
    })
    offered = (await dohStats(stack.dohUrl)).lookups - before.lookups
    if (offered >= zones) break
  }
  const d = statsDelta(before, await dohStats(stack.dohUrl), 0)
  const out = {
    seconds: (performance.now() - t0) / 1000,
    queries: d.queries,
    zones: d.zones,
    kvCalls: d.kvCalls,
    kvKeys: d.kvKeys,
    revalidations: d.revalidations,
  }
  log(
    `${label}: sequential pass ${out.queries.toLocaleString('en-US')} queries in ${out.seconds.toFixed(0)} s, ${out.zones.toLocaleString('en-US')} zones held`
  )
  return out
}

/** `zones-10k`: the Zipf mix over 10,000 zones, then names outside every zone. */
export async function runZones10k(ctx) {
  const { stack, quick, log } = ctx
  const zones = zonesOf('zones-10k', quick)
  const out = { seed: await seedZones(ctx, zones) }
  const gen = zonesGen(zones)
  await probeGen(stack.dohUrl, gen)
  out.pass = await offerEveryZone(stack, zones, quick ? 5 : 60, log, 'zones-10k')
  out.warm = await warm(stack, gen, quick ? 10 : WARM_MAX_S, log, `zones-10k`)
  out.zipf = await measure(stack, gen, quick, log, `zones-10k: Zipf over ${zones} zones`)

  const outside = { kind: 'outside' }
  await warmUp({ url: stack.dohUrl, gen: outside, duration: 3, seed: 301 })
  out.outside = await measure(stack, outside, quick, log, 'zones-10k: names outside every zone')
  return out
}

/** `zones-100k`: the same over 100,000 zones (as many held as the pass and the cache allow). */
export async function runZones100k(ctx) {
  const { stack, quick, log } = ctx
  const zones = zonesOf('zones-100k', quick)
  const out = { seed: await seedZones(ctx, zones) }
  const gen = zonesGen(zones)
  await probeGen(stack.dohUrl, gen)
  out.pass = await offerEveryZone(stack, zones, quick ? 10 : 400, log, 'zones-100k')
  out.warm = await warm(stack, gen, quick ? 10 : WARM_MAX_S, log, 'zones-100k')
  out.zipf = await measure(stack, gen, quick, log, `zones-100k: Zipf over ${zones} zones`)
  return out
}
