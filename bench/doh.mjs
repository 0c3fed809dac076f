/**
 * @module DoH throughput and latency: wire-format GET queries from a second process (autocannon)
 * at saturation and at a fixed 1,000 queries/s, for existing, NXDOMAIN and wildcard names on the
 * small and the large zone, each beside an empty worker measured in the same run (the runtime's
 * ceiling). The DoH worker is loaded on its own socket; one extra row goes through the API
 * worker's /dns-query pass-through (Miniflare entry → API worker → service binding) for comparison.
 */
import { benchZones, MIXES } from './lib/fixtures.mjs'
import { loadPlan, measureTarget, probeMix, warmUp, wirePaths } from './lib/dohload.mjs'

export async function runDohBench(ctx) {
  const { stack, quick, log } = ctx
  const zones = await benchZones(ctx)
  const plan = loadPlan(quick)
  log(`doh: ${plan.reps} × ${plan.duration} s per figure, ${plan.connections} connections at saturation, ${plan.fixedConnections} at the fixed rate`)
  for (const kind of ['small', 'large']) for (const mix of MIXES) await probeMix(stack.dohUrl, zones[kind].name, zones[kind].size, mix)

  await warmUp({ url: stack.emptyUrl, paths: ['/'] })
  const empty = await measureTarget({ url: stack.emptyUrl, paths: ['/'], plan })
  log(`doh: empty worker ${Math.round(empty.sat.rps.median)} req/s at saturation, p50 ${empty.fixed.p50.median.toFixed(2)} ms at 1,000/s`)

  // One KV get per request on the same namespace: what the local KV simulator alone allows.
  // The value read is one of the zone's buckets (layout v2), as the DoH worker reads for a name.
  const meta = await (await fetch(`${stack.kvProbeUrl}/?k=${encodeURIComponent(`z:${zones.small.name}`)}`)).json()
  const buckets = meta.layout?.buckets ?? 16
  const kvPaths = Array.from({ length: 500 }, (_, i) => `/?k=${encodeURIComponent(`b:${zones.small.name}:${buckets}:${(i * 7919) % buckets}`)}`)
  await warmUp({ url: stack.kvProbeUrl, paths: kvPaths })
  const kvProbe = await measureTarget({ url: stack.kvProbeUrl, paths: kvPaths, plan })
  log(`doh: one KV get per request ${Math.round(kvProbe.sat.rps.median)} req/s at saturation (${(kvProbe.sat.rps.median / empty.sat.rps.median).toFixed(2)} of empty)`)

  const rows = []
  for (const kind of ['small', 'large']) {
    const zone = zones[kind]
    await warmUp({ url: stack.dohUrl, paths: wirePaths(zone.name, zone.size, 'existing') })
    for (const mix of MIXES) {
      const m = await measureTarget({ url: stack.dohUrl, paths: wirePaths(zone.name, zone.size, mix), plan })
      rows.push({ zone: kind, size: zone.size, mix, ...m })
      log(`doh: ${zone.name} ${mix}: ${Math.round(m.sat.rps.median)} q/s (${(m.sat.rps.median / empty.sat.rps.median).toFixed(2)} of empty), p50 ${m.fixed.p50.median.toFixed(2)} / p99 ${m.fixed.p99.median.toFixed(2)} ms at 1,000/s`)
    }
  }

  // The same existing-name mix through the API worker's pass-through (what `pnpm dev` serves).
  const small = zones.small
  await probeMix(stack.url, small.name, small.size, 'existing')
  const paths = wirePaths(small.name, small.size, 'existing')
  await warmUp({ url: stack.url, paths })
  const passthrough = { zone: 'small', size: small.size, mix: 'existing', ...(await measureTarget({ url: stack.url, paths, plan })) }
  log(`doh: pass-through via the API worker: ${Math.round(passthrough.sat.rps.median)} q/s`)

  // Re-measure the empty worker at the end: the ratio uses the mean of both, so drift shows.
  const emptyAfter = await measureTarget({ url: stack.emptyUrl, paths: ['/'], plan })
  return { plan, empty, emptyAfter, kvProbe, rows, passthrough }
}
