/**
 * @module DoH load figures shared by our section and the peers': the query pool of a mix as
 * RFC 8484 GET paths, a correctness probe before loading, and saturation / fixed-rate runs
 * repeated and summarised (median with min–max over repetitions).
 */
import { EXPECT, queryNames } from './fixtures.mjs'
import { base64url, encodeQuery, parseHeader, wirePath } from './dnswire.mjs'
import { runLoad } from './load.mjs'
import { nameSampler, seededRandom } from './namegen.mjs'
import { summarize } from './stats.mjs'

/** Fixed rate of the latency figures (issue "DNS-over-HTTPS worker"). */
const FIXED_RATE = 1000

export function loadPlan(quick) {
  return { reps: quick ? 1 : 3, duration: quick ? 3 : 4, connections: 32, fixedConnections: 16 }
}

/** RFC 8484 GET paths for a mix on a zone. */
export const wirePaths = (zone, size, mix) => queryNames(zone, size, mix).map((n) => wirePath(n))

/** A probe query that takes longer than this fails (a hung worker must not hang the bench). */
const PROBE_TIMEOUT_MS = 15_000

/** Checks a few queries of a mix answer as expected before measuring (wire GET). */
export async function probeMix(base, zone, size, mix, { h2Fetch } = {}) {
  for (const name of queryNames(zone, size, mix, 5, 99)) {
    const path = `/dns-query?dns=${base64url(encodeQuery(name))}`
    const body = h2Fetch
      ? await h2Fetch(path)
      : Buffer.from(
          await (
            await fetch(base + path, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
          ).arrayBuffer()
        )
    const h = parseHeader(body)
    if (h.rcode !== EXPECT[mix] || (EXPECT[mix] === 'NOERROR' && h.an < 1)) {
      throw new Error(
        `${base}: ${name} answered ${h.rcode} with ${h.an} answers, expected ${EXPECT[mix]}`
      )
    }
  }
}

/** Checks a few names a generator spec draws (bench/lib/namegen.mjs) answer with data (wire GET). */
export async function probeGen(base, gen) {
  const next = nameSampler(gen, seededRandom(99))
  for (let k = 0; k < 5; k++) {
    const name = next()
    const h = parseHeader(
      Buffer.from(
        await (
          await fetch(`${base}${wirePath(name)}`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
        ).arrayBuffer()
      )
    )
    if (h.rcode !== 'NOERROR' || h.an < 1)
      throw new Error(
        `${base}: ${name} answered ${h.rcode} with ${h.an} answers, expected NOERROR with data`
      )
  }
}

/** The DoH worker's counters (`GET /stats`, enabled by DOH_STATS=1; one isolate under Miniflare). */
export async function dohStats(base) {
  const res = await fetch(`${base}/stats`)
  if (res.status !== 200)
    throw new Error(`${base}/stats → HTTP ${res.status} (DOH_STATS not enabled?)`)
  return { ...(await res.json()), atMs: performance.now() }
}

/**
 * What the DoH worker's view did between two /stats snapshots: KV calls and keys per lookup
 * (a lookup is one query's zone read), bucket hits, revalidations per second of load, and the
 * cache size at the end. `loadSeconds` is the time the load ran (the gaps between runs are idle).
 */
export function statsDelta(before, after, loadSeconds) {
  const d = (k) => (after[k] ?? 0) - (before[k] ?? 0)
  const lookups = d('lookups')
  // Wire queries answered from the answer cache make no lookup: count per query where known.
  const queries = d('answerHits') + d('answerMisses') || lookups
  return {
    lookups,
    queries,
    answerHitRate: queries > 0 ? d('answerHits') / queries : null,
    kvCalls: d('kvCalls'),
    kvKeys: d('kvKeys'),
    revalidations: d('revalidations'),
    bucketHits: d('bucketHits'),
    bucketMisses: d('bucketMisses'),
    kvCallsPerLookup: queries > 0 ? d('kvCalls') / queries : null,
    kvKeysPerLookup: queries > 0 ? d('kvKeys') / queries : null,
    revalidationsPerSecond: loadSeconds > 0 ? d('revalidations') / loadSeconds : null,
    loadSeconds,
    cacheBytes: after.cacheBytes,
    answerBytes: after.answerBytes,
    cachedBuckets: after.cachedBuckets,
    zones: after.zones,
  }
}

function aggregate(runs) {
  return {
    rps: summarize(runs.map((r) => r.rps)),
    p50: summarize(runs.map((r) => r.p50)),
    p99: summarize(runs.map((r) => r.p99)),
    errors: runs.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0),
    requests: runs.reduce((a, r) => a + r.total, 0),
  }
}

/** Saturation and fixed-rate figures of one target (url + paths), `reps` times each. */
export async function measureTarget({ url, paths, gen, h2 = false, plan, headers }) {
  const sat = []
  const fixed = []
  const target = { url, paths, gen, h2, headers, duration: plan.duration }
  for (let r = 0; r < plan.reps; r++) {
    sat.push(await runLoad({ ...target, connections: plan.connections, seed: r + 1 }))
    fixed.push(
      await runLoad({
        ...target,
        connections: plan.fixedConnections,
        rate: FIXED_RATE,
        seed: r + 11,
      })
    )
  }
  return { sat: aggregate(sat), fixed: aggregate(fixed) }
}

/**
 * Saturation only, `reps` times: the empty worker fed the same request stream as a DoH mix (same
 * paths or generator, same load process), the like-for-like ceiling for that mix.
 */
export async function measureSaturation({ url, paths, gen, plan }) {
  const sat = []
  for (let r = 0; r < plan.reps; r++)
    sat.push(
      await runLoad({
        url,
        paths,
        gen,
        connections: plan.connections,
        duration: plan.duration,
        seed: r + 1,
      })
    )
  return aggregate(sat)
}

/** A short unrecorded run (JIT, caches, connections) before measuring a target. */
export async function warmUp({ url, paths, gen, h2 = false, headers, duration = 2, seed = 1 }) {
  return runLoad({ url, paths, gen, h2, headers, connections: 16, duration, seed })
}
