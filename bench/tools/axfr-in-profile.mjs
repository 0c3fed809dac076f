#!/usr/bin/env node
/**
 * @module Where an incoming AXFR's time goes (not part of `pnpm bench`): a BIND primary serves a
 * zone of `size` records; one of our secondary zones pulls it (the transfers section's row 3) while
 * workerd's inspector profiles the API isolate. Prints the times until committed and until DoH
 * answers the last record, the builder's last full build, and the functions with the most self time;
 * the API's log lines about the secondary zone, and polls of the incoming settings that took over
 * 500 ms, each with its time since the incoming settings were written.
 *
 *   node bench/tools/axfr-in-profile.mjs [size=200000]
 *
 * PROFILE_OUT writes the raw profile (`.cpuprofile`); NO_PROFILE=1 runs without the profiler;
 * POLL_MS sets the DoH poll's interval (100 ms); INSPECTOR_PORT the inspector's port (9241); REBUILD=1 then times a full rebuild of the same zone (`POST …/propagation/rebuild`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { aRecord, apiClient } from '../lib/api.mjs'
import { printSelfTimes } from '../lib/cpu-profile.mjs'
import { inspectWorker } from '../lib/inspector.mjs'
import { XFR_KEY, startPrimary } from '../lib/named-xfr.mjs'
import { pollDoh, waitBuilt } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { helpIfAsked } from '../lib/tool-help.mjs'
import { makePeer } from '../lib/transfer-settings.mjs'
import { writeZoneFile } from '../peers/zonefile.mjs'
import { sleep } from '../peers/proc.mjs'

helpIfAsked(import.meta.url)

/** Sample times of a profile (µs, the profile's clock). */
function sampleTimes(p) {
  let t = p.startTime
  return p.timeDeltas.map((d) => (t += d))
}

/** [first, last] sample time with `fn` on the stack. */
function windowOf(p, fn) {
  const parent = new Map()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n)
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const has = (id) => {
    for (let n = byId.get(id); n; n = parent.get(n.id))
      if (n.callFrame.functionName === fn) return true
    return false
  }
  const times = sampleTimes(p)
  let lo = Infinity
  let hi = -Infinity
  p.samples.forEach((id, i) => {
    if (!has(id)) return
    lo = Math.min(lo, times[i])
    hi = Math.max(hi, times[i])
  })
  return [lo, hi]
}

/** The profile with only the samples in [from, to]. */
function within(p, [from, to]) {
  const times = sampleTimes(p)
  const keep = p.samples.map((_, i) => times[i] >= from && times[i] <= to)
  return { ...p, samples: p.samples.filter((_, i) => keep[i]) }
}

const secs = ([a, b]) => ((b - a) / 1e6).toFixed(1)

const size = Number(process.argv[2] ?? 200_000)
const ZONE = 'xfr-in.bench.example'
const INSPECTOR_PORT = Number(process.env.INSPECTOR_PORT ?? 9241)
const profile = !process.env.NO_PROFILE
const log = (m) => console.log(`[axfr-in] ${m}`)
/** When the incoming settings were written (runtime log lines are timed from it). */
let t0
const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-axfr-in-'))
const file = path.join(dir, `${ZONE}.zone`)
await writeZoneFile(file, ZONE, size)
const primary = await startPrimary({ dir: path.join(dir, 'primary'), zone: ZONE, file })
const stack = await startBenchStack({
  ...(profile ? { inspectorPort: INSPECTOR_PORT } : {}),
  onRuntimeLog: ({ message }) => {
    if (message.includes('secondary zone'))
      log(`${(t0 === undefined ? 0 : (performance.now() - t0) / 1000).toFixed(2)} s ${message}`)
  },
})
try {
  const api = apiClient(stack.url, stack.token)
  const [account] = (await api.call('GET', '/accounts')).result
  const peer = await makePeer(api, account.id, {
    name: 'primary',
    port: primary.port,
    ixfr: true,
    key: XFR_KEY,
  })
  const zone = (
    await api.call('POST', '/zones', { name: ZONE, account: { id: account.id }, type: 'secondary' })
  ).result
  const cdp = profile ? await inspectWorker(INSPECTOR_PORT, 'edgedns-api') : null
  if (cdp) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
    await cdp.send('Profiler.start')
  }
  const last = aRecord('base', size - 1)
  t0 = performance.now()
  await api.call('POST', `/zones/${zone.id}/secondary_dns/incoming`, {
    name: ZONE,
    peers: [peer],
    auto_refresh_seconds: 86400,
  })
  let committedMs = NaN
  const polling = (async () => {
    for (;;) {
      const asked = performance.now()
      const r = (await api.call('GET', `/zones/${zone.id}/secondary_dns/incoming`)).result
      const answered = performance.now()
      if (answered - asked > 500)
        log(
          `${((answered - t0) / 1000).toFixed(2)} s GET …/secondary_dns/incoming took ${Math.round(answered - asked)} ms`
        )
      if (r.soa_serial !== undefined) return (committedMs = answered - t0)
      await sleep(100)
    }
  })()
  const seen = await pollDoh(
    stack.dohUrl,
    `${last.name}.${ZONE}`,
    (a) => a.data.includes(last.content),
    {
      everyMs: 100,
      timeoutMs: 30 * 60_000,
    }
  )
  await Promise.race([polling, sleep(1000)])
  log(
    `${size} records: committed ${(committedMs / 1000).toFixed(1)} s, DoH answers ${((seen.atMs - t0) / 1000).toFixed(1)} s`
  )
  const s = (await (await stack.builder(zone.id)).status()).lastFullBuild
  log(
    `builder full build: ${JSON.stringify({ ms: s?.ms, keys: s?.keysWritten, phaseMs: s?.phaseMs })}`
  )
  if (process.env.REBUILD) {
    // The same zone's full build again, as `POST …/propagation/rebuild` runs it: the fresh build's cost beside a rebuild's.
    const r0 = performance.now()
    const { result } = await api.call('POST', `/zones/${zone.id}/propagation/rebuild`, {})
    await waitBuilt(api, zone.id, { seq: result.seq, everyMs: 50, timeoutMs: 3_600_000 })
    const b = (await (await stack.builder(zone.id)).status()).lastFullBuild
    log(
      `rebuild: ${Math.round(performance.now() - r0)} ms wall, ${JSON.stringify({ ms: b?.ms, phaseMs: b?.phaseMs })}`
    )
  }
  if (cdp) {
    const { profile: p } = await cdp.send('Profiler.stop')
    cdp.close()
    if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(p))
    const pull = windowOf(p, 'readTransfer')
    const build = windowOf(p, 'mirrorPages')
    log(
      `profile: receive+map+stage ${secs(pull)} s, then commit ${secs([pull[1], build[0]])} s, full build from ${secs([pull[0], build[0]])} s on`
    )
    console.log('-- receive, map, stage: self time')
    printSelfTimes(within(p, pull), 25)
    console.log('-- full build and after: self time')
    printSelfTimes(within(p, [build[0], Infinity]), 25)
  }
} finally {
  await stack.close()
  await primary.stop()
  rmSync(dir, { recursive: true, force: true })
}
