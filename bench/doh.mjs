/**
 * @module DoH throughput and latency: wire-format GET queries from a second process (autocannon)
 * at saturation and at a fixed 1,000 queries/s, for existing, NXDOMAIN and wildcard names on the
 * small and the large zone, each beside an empty worker measured in the same run (the runtime's
 * ceiling). Two more mixes on the large zone draw names from the whole zone instead of a pool of
 * 2,000: `zipf` (s = 1) and `uniform`, each after a warm-up with the same distribution. The DoH
 * worker is loaded on its own socket; one extra row goes through the API worker's /dns-query
 * pass-through (Miniflare entry → API worker → service binding) for comparison. Around every
 * measured mix the DoH worker's /stats counters are read: KV calls and keys per query.
 */
import { localDohSettings } from '../scripts/lib/dev-vars.mjs'
import { benchZones, MIXES } from './lib/fixtures.mjs'
import { waitQuiet } from './lib/propagation.mjs'
import {
  dohStats,
  loadPlan,
  measureSaturation,
  measureTarget,
  probeGen,
  probeMix,
  statsDelta,
  warmUp,
  wirePaths,
} from './lib/dohload.mjs'

/** Mixes drawn over the whole large zone (bench/lib/namegen.mjs). */
export const ZONE_MIXES = [
  { mix: 'zipf', gen: { kind: 'zipf', s: 1 } },
  { mix: 'uniform', gen: { kind: 'uniform' } },
]

/**
 * Whole-zone warm-up: 3 s runs until the isolate holds what the mix needs, or WARM_MAX_S. Uniform
 * needs every bucket (enough lookups to have touched each: n ln n, at least WARM_LOOKUPS); Zipf
 * needs its steady state, a run in which fewer than WARM_MISS_RATE of the queries read a bucket
 * from KV (the hot names are answered from memory at once; the tail keeps reaching new buckets
 * until the isolate holds them all).
 */
const WARM_LOOKUPS = 20_000
const WARM_MISS_RATE = 0.002
const WARM_MAX_S = 60

/** Time the load of one measureTarget ran (saturation + fixed rate, every repetition). */
const loadSeconds = (plan) => 2 * plan.reps * plan.duration

/** measureTarget with the DoH worker's counters read before and after. */
async function measureWithStats(stack, plan, target) {
  const before = await dohStats(stack.dohUrl)
  const m = await measureTarget({ ...target, plan })
  const after = await dohStats(stack.dohUrl)
  return { ...m, kv: statsDelta(before, after, loadSeconds(plan)) }
}

/**
 * The answers checked again after a mix's runs (the load generator sees HTTP status only, and a
 * DoH answer that went wrong under load — SERVFAIL — is still HTTP 200): null or what failed.
 */
async function answersAfter(probe, log, label) {
  try {
    await probe()
    return null
  } catch (e) {
    log(`doh: ${label}: WRONG ANSWERS after the runs: ${e.message}`)
    return String(e.message ?? e)
  }
}

/** The DoH worker's KV counters per query, or that it counted none (queries answered elsewhere). */
const kvLine = (kv) =>
  kv.kvCallsPerLookup == null
    ? "no queries counted by the DoH worker's KV counters"
    : `${kv.kvCallsPerLookup.toFixed(3)} KV calls / ${kv.kvKeysPerLookup?.toFixed(3)} keys per query, ${kv.answerHitRate == null ? '' : `${(kv.answerHitRate * 100).toFixed(0)} % from the answer cache, `}${kv.revalidationsPerSecond?.toFixed(0)} revalidations/s`

/** Warms a generated mix to the state its figures describe (see WARM_MISS_RATE). */
async function warmGen(stack, gen, buckets, log) {
  const uniform = gen.kind === 'uniform'
  const want = uniform ? Math.max(WARM_LOOKUPS, Math.ceil(buckets * Math.log(buckets))) : 0
  const before = await dohStats(stack.dohUrl)
  const t0 = performance.now()
  let now = before
  let missRate = 1
  for (let run = 0; performance.now() - t0 < WARM_MAX_S * 1000; run++) {
    const start = now
    await warmUp({ url: stack.dohUrl, gen, duration: 3, seed: 101 + run })
    now = await dohStats(stack.dohUrl)
    const d = statsDelta(start, now, 3)
    missRate = d.queries > 0 ? d.bucketMisses / d.queries : 1
    if (uniform ? now.lookups - before.lookups >= want : missRate < WARM_MISS_RATE) break
  }
  const seconds = (performance.now() - t0) / 1000
  log(
    `doh: ${gen.kind} warm-up ${(now.lookups - before.lookups).toLocaleString('en-US')} lookups in ${seconds.toFixed(0)} s (${uniform ? `wanted ${want.toLocaleString('en-US')}` : `last run ${(missRate * 100).toFixed(2)} % of queries read a bucket`}), ${now.cachedBuckets.toLocaleString('en-US')} buckets cached`
  )
  return {
    lookups: now.lookups - before.lookups,
    wanted: want,
    lastMissRate: missRate,
    cachedBuckets: now.cachedBuckets,
    seconds,
  }
}

export async function runDohBench(ctx) {
  const { stack, quick, log } = ctx
  const zones = await benchZones(ctx)
  // The sections before this one leave builder work (a full build's prune, bucket flushes) that would
  // share workerd's thread with the loads.
  const quietMs = await waitQuiet(stack, zones, log)
  log(`doh: builders quiet after ${(quietMs / 1000).toFixed(1)} s`)
  const plan = loadPlan(quick)
  log(
    `doh: ${plan.reps} × ${plan.duration} s per figure, ${plan.connections} connections at saturation, ${plan.fixedConnections} at the fixed rate`
  )
  for (const kind of ['small', 'large'])
    for (const mix of MIXES) await probeMix(stack.dohUrl, zones[kind].name, zones[kind].size, mix)

  await warmUp({ url: stack.emptyUrl, paths: ['/'] })
  const empty = await measureTarget({ url: stack.emptyUrl, paths: ['/'], plan })
  log(
    `doh: empty worker ${Math.round(empty.sat.rps.median)} req/s at saturation, p50 ${empty.fixed.p50.median.toFixed(2)} ms at 1,000/s`
  )

  // One KV get per request on the same namespace: what the local KV simulator alone allows.
  // The value read is one of the zone's buckets, as the DoH worker reads for a name.
  const meta = await (
    await fetch(`${stack.kvProbeUrl}/?k=${encodeURIComponent(`z:${zones.small.name}`)}`)
  ).json()
  const buckets = meta.layout?.buckets ?? 16
  const kvPaths = Array.from(
    { length: 500 },
    (_, i) =>
      `/?k=${encodeURIComponent(`b:${zones.small.name}:${buckets}:${(i * 7919) % buckets}`)}`
  )
  await warmUp({ url: stack.kvProbeUrl, paths: kvPaths })
  const kvProbe = await measureTarget({ url: stack.kvProbeUrl, paths: kvPaths, plan })
  log(
    `doh: one KV get per request ${Math.round(kvProbe.sat.rps.median)} req/s at saturation (${(kvProbe.sat.rps.median / empty.sat.rps.median).toFixed(2)} of empty)`
  )

  const rows = []
  const report = (zone, mix, m) =>
    log(
      `doh: ${zone.name} ${mix}: ${Math.round(m.sat.rps.median)} q/s (${(m.sat.rps.median / empty.sat.rps.median).toFixed(2)} of empty, ${(m.sat.rps.median / m.emptySame.rps.median).toFixed(2)} of empty fed the same requests), p50 ${m.fixed.p50.median.toFixed(2)} / p99 ${m.fixed.p99.median.toFixed(2)} ms at 1,000/s; ${kvLine(m.kv)}`
    )
  for (const kind of ['small', 'large']) {
    const zone = zones[kind]
    await warmUp({ url: stack.dohUrl, paths: wirePaths(zone.name, zone.size, 'existing') })
    for (const mix of MIXES) {
      const m = await measureWithStats(stack, plan, {
        url: stack.dohUrl,
        paths: wirePaths(zone.name, zone.size, mix),
      })
      m.emptySame = await measureSaturation({
        url: stack.emptyUrl,
        paths: wirePaths(zone.name, zone.size, mix),
        plan,
      })
      m.answersAfter = await answersAfter(
        () => probeMix(stack.dohUrl, zone.name, zone.size, mix),
        log,
        `${zone.name} ${mix}`
      )
      rows.push({ zone: kind, size: zone.size, mix, ...m })
      report(zone, mix, m)
    }
  }

  // Names over the whole large zone: Zipf-hot and uniform (the cache must hold the zone's buckets).
  const large = zones.large
  const largeMeta = await (
    await fetch(`${stack.kvProbeUrl}/?k=${encodeURIComponent(`z:${large.name}`)}`)
  ).json()
  const largeBuckets = largeMeta.layout?.buckets ?? 4096
  for (const { mix, gen: g } of ZONE_MIXES) {
    const gen = { ...g, zone: large.name, size: large.size, prefix: 'base-' }
    await probeGen(stack.dohUrl, gen)
    const warm = await warmGen(stack, gen, largeBuckets, log)
    const m = await measureWithStats(stack, plan, { url: stack.dohUrl, gen })
    m.emptySame = await measureSaturation({ url: stack.emptyUrl, gen, plan })
    m.answersAfter = await answersAfter(
      () => probeGen(stack.dohUrl, gen),
      log,
      `${large.name} ${mix}`
    )
    rows.push({
      zone: 'large',
      size: large.size,
      mix,
      buckets: largeBuckets,
      warm: warm?.lookups ? warm : undefined,
      ...m,
    })
    report(large, mix, m)
    if (mix === 'uniform')
      log(
        `doh: after uniform: ${(m.kv.cacheBytes / 2 ** 20).toFixed(1)} MB cached in ${m.kv.cachedBuckets.toLocaleString('en-US')} buckets (${largeBuckets.toLocaleString('en-US')} in the large zone)`
      )
  }

  // The same existing-name mix through the API worker's pass-through (what `pnpm dev` serves).
  const small = zones.small
  await probeMix(stack.url, small.name, small.size, 'existing')
  const paths = wirePaths(small.name, small.size, 'existing')
  await warmUp({ url: stack.url, paths })
  const passthrough = {
    zone: 'small',
    size: small.size,
    mix: 'existing',
    ...(await measureWithStats(stack, plan, { url: stack.url, paths })),
  }
  passthrough.answersAfter = await answersAfter(
    () => probeMix(stack.url, small.name, small.size, 'existing'),
    log,
    'pass-through'
  )
  log(
    `doh: pass-through via the API worker: ${Math.round(passthrough.sat.rps.median)} q/s; ${kvLine(passthrough.kv)}`
  )

  // Re-measure the empty worker at the end: the ratio uses the mean of both, so drift shows.
  const emptyAfter = await measureTarget({ url: stack.emptyUrl, paths: ['/'], plan })
  return {
    plan,
    settings: localDohSettings(),
    empty,
    emptyAfter,
    kvProbe,
    rows,
    passthrough,
    largeBuckets,
  }
}
