/**
 * @module DoH load figures shared by our section and the peers': the query pool of a mix as
 * RFC 8484 GET paths, a correctness probe before loading, and saturation / fixed-rate runs
 * repeated and summarised (median with min–max over repetitions).
 */
import { EXPECT, queryNames } from './fixtures.mjs'
import { base64url, encodeQuery, parseHeader, wirePath } from './dnswire.mjs'
import { runLoad } from './load.mjs'
import { summarize } from './stats.mjs'

/** Fixed rate of the latency figures (issue "DNS-over-HTTPS worker"). */
export const FIXED_RATE = 1000

export function loadPlan(quick) {
  return { reps: quick ? 1 : 3, duration: quick ? 3 : 4, connections: 32, fixedConnections: 16 }
}

/** RFC 8484 GET paths for a mix on a zone. */
export const wirePaths = (zone, size, mix) => queryNames(zone, size, mix).map((n) => wirePath(n))

/** Checks a few queries of a mix answer as expected before measuring (wire GET). */
export async function probeMix(base, zone, size, mix, { h2Fetch } = {}) {
  for (const name of queryNames(zone, size, mix, 5, 99)) {
    const path = `/dns-query?dns=${base64url(encodeQuery(name))}`
    const body = h2Fetch ? await h2Fetch(path) : Buffer.from(await (await fetch(base + path)).arrayBuffer())
    const h = parseHeader(body)
    if (h.rcode !== EXPECT[mix] || (EXPECT[mix] === 'NOERROR' && h.an < 1)) {
      throw new Error(`${base}: ${name} answered ${h.rcode} with ${h.an} answers, expected ${EXPECT[mix]}`)
    }
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
export async function measureTarget({ url, paths, h2 = false, plan, headers }) {
  const sat = []
  const fixed = []
  for (let r = 0; r < plan.reps; r++) {
    sat.push(await runLoad({ url, paths, h2, headers, connections: plan.connections, duration: plan.duration, seed: r + 1 }))
    fixed.push(await runLoad({ url, paths, h2, headers, connections: plan.fixedConnections, duration: plan.duration, rate: FIXED_RATE, seed: r + 11 }))
  }
  return { sat: aggregate(sat), fixed: aggregate(fixed) }
}

/** A short unrecorded run (JIT, caches, connections) before measuring a target. */
export async function warmUp({ url, paths, h2 = false, headers }) {
  await runLoad({ url, paths, h2, headers, connections: 16, duration: 2 })
}
