#!/usr/bin/env node
/**
 * @module Where a one-record change's commit → visible time goes (not part of `pnpm bench`):
 * creates and deletes A records at fresh names on a 1,000-record zone, pacing off, and splits
 * each change's time into handler end → pass start (notify), the pass (builder's own timing),
 * and head written → seen through DoH (reader). `node bench/tools/visible-profile.mjs [changes=60]
 * [apex]`: with `apex`, TXT records at the zone apex with unique contents instead (visible = the
 * apex TXT answer includes it / no longer does). DOH_VARS='{"REVALIDATE_MS":"20"}' sets DoH
 * worker variables; PACED=1 runs with production pacing (one write per KV key per second) and
 * starts changes 200 ms apart; BACK_TO_BACK=1 starts each change as soon as the previous one is
 * visible, not once its builder's step has ended (as the propagation bench waits); ZONE_SIZE=n
 * seeds the zone with n records instead of 1,000; TAIL=n then adds n more in batches of 5,000, each built by per-record passes (the state a seed
 * that ends in passes rather than a full build leaves: most buckets rewritten one by one), and
 * waits until the builder is quiet;
 * PROFILE=<worker> (e.g. edgedns-api, edgedns-doh) prints that worker's functions with the most
 * self time over the measured changes. Also prints the runtime's CPU time per change (workerd,
 * all threads).
 */
import { apiClient } from '../lib/api.mjs'
import { createBenchZone } from '../lib/fixtures.mjs'
import { printSelfTimes } from '../lib/cpu-profile.mjs'
import { inspectWorker } from '../lib/inspector.mjs'
import { runtimeCpuMs } from '../lib/procs.mjs'
import { builderSettled, pollDoh, waitBuilt, waitQuiet } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { summarize } from '../lib/stats.mjs'
import { helpIfAsked } from '../lib/tool-help.mjs'

helpIfAsked(import.meta.url)

const changes = Number(process.argv[2] ?? 60)
const apex = process.argv[3] === 'apex'
const paced = process.env.PACED === '1'
const profiled = process.env.PROFILE
const stack = await startBenchStack({
  ...(profiled ? { inspectorPort: 9239 } : {}),
  dohBindings: JSON.parse(process.env.DOH_VARS ?? '{}'),
  apiBindings: {
    ...(paced ? { KV_KEY_WRITE_INTERVAL_MS: '1000' } : {}),
    ...JSON.parse(process.env.API_VARS ?? '{}'),
  },
})
const log = (m) => console.log(`[visible] ${m}`)

try {
  const api = apiClient(stack.url, stack.token)
  const zone = await createBenchZone(
    { api, log },
    'small.bench.example',
    Number(process.env.ZONE_SIZE ?? 1000)
  )
  const builder = await stack.builder(zone.id)
  const tail = Number(process.env.TAIL ?? 0)
  for (let done = 0; done < tail; done += 5000) {
    const posts = Array.from({ length: Math.min(5000, tail - done) }, (_, i) => ({
      type: 'A',
      name: `tail-${done + i}`,
      content: '192.0.2.9',
    }))
    await api.batch(zone.id, { posts })
    await waitBuilt(api, zone.id, { timeoutMs: 600_000 })
  }
  if (tail > 0) {
    const quietMs = await waitQuiet(stack, { zone }, log)
    log(
      `${tail.toLocaleString('en-US')} more records by passes; quiet after ${quietMs.toFixed(0)} ms`
    )
  }
  const s = {
    commit: [],
    notify: [],
    'notify.call': [],
    'notify.step': [],
    pass: [],
    'pass.read': [],
    'pass.trips': [],
    'pass.nodes': [],
    'pass.publish': [],
    'pass.headKv': [],
    'pass.feed': [],
    reader: [],
    'reader.sent': [],
    'reader.rtt': [],
    'reader.polls': [],
    server: [],
    response: [],
    sentToCommit: [],
  }
  let rec = null
  let cpu0 = 0
  let cdp = null
  let stats0 = null
  let lastStart = 0
  const measured = []
  for (let k = 0; k < changes + 10; k++) {
    if (k === 10) {
      cpu0 = runtimeCpuMs()
      stats0 = await (await fetch(`${stack.dohUrl}/stats`)).json()
      if (profiled) {
        cdp = await inspectWorker(9239, profiled)
        await cdp.send('Profiler.enable')
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
        await cdp.send('Profiler.start')
      }
    }
    const create = k % 2 === 0
    if (paced && k > 0)
      await new Promise((r) => setTimeout(r, Math.max(0, lastStart + 200 - Date.now())))
    const t0 = Date.now()
    lastStart = t0
    const tSent = t0
    // The poller runs from the submit on, as DNS clients do, not from the API response.
    const name = apex ? '@' : create ? `v${k}` : rec.name
    const fqdn = apex ? zone.name : `${name}.${zone.name}`
    const txt = create ? `"visible-${k}"` : rec?.txt
    const seenP = apex
      ? pollDoh(
          stack.dohUrl,
          fqdn,
          create ? (a) => a.data.includes(txt) : (a) => !a.data.includes(txt),
          { type: 'TXT' }
        )
      : pollDoh(
          stack.dohUrl,
          fqdn,
          create ? (a) => a.data.includes('192.0.2.7') : (a) => a.status === 3
        )
    let headers
    if (create) {
      const { result, headers: h } = await api.call(
        'POST',
        `/zones/${zone.id}/dns_records`,
        apex
          ? { type: 'TXT', name, content: txt, ttl: 60 }
          : { type: 'A', name, content: '192.0.2.7', ttl: 60 }
      )
      rec = { id: result.id, name, txt }
      headers = h
    } else headers = (await api.call('DELETE', `/zones/${zone.id}/dns_records/${rec.id}`)).headers
    const tResponse = Date.now()
    // The commit instant: the API's clock when D1 acknowledged it (same machine clock).
    const handlerEnd = Number(headers.get('x-edgedns-committed-at'))
    const seen = await seenP
    const tSeen = performance.timeOrigin + seen.atMs
    // As the propagation bench: the next change once this one's step has ended (BACK_TO_BACK=1:
    // at once, while the builder may still write this change's slot and bucket).
    if (process.env.BACK_TO_BACK !== '1') await builderSettled(builder)
    if (k < 10) continue
    measured.push({ handlerEnd, tSeen, seen, headers, tResponse, tSent })
  }
  // Each change's pass: the first per-record pass reported after its commit (read once at the end:
  // a pass reports after the yield that follows its head).
  const passes = (await builder.status()).recentPasses.filter((p) => p.kind === 'per-record')
  for (const { handlerEnd, tSeen, seen, headers, tResponse, tSent } of measured) {
    const lp = passes.find((p) => p.at >= handlerEnd)
    if (!lp) throw new Error(`no pass reported after the commit at ${handlerEnd}`)
    s.commit.push(tSeen - handlerEnd)
    s.notify.push(lp.at - lp.ms - handlerEnd)
    if (lp.calledAt) {
      s['notify.call'].push(lp.calledAt - handlerEnd)
      s['notify.step'].push(lp.at - lp.ms - lp.calledAt)
    }
    s.pass.push(lp.ms)
    s['pass.trips'].push(lp.readTrips ?? 2)
    for (const [k, v] of Object.entries(lp.phaseMs ?? {})) s[`pass.${k}`].push(v)
    s.reader.push(tSeen - lp.at)
    s['reader.sent'].push(performance.timeOrigin + seen.sentMs - lp.at)
    s['reader.rtt'].push(seen.atMs - seen.sentMs)
    s['reader.polls'].push(seen.polls)
    s.server.push(api.serverMs(headers))
    s.response.push(tResponse - handlerEnd)
    s.sentToCommit.push(handlerEnd - tSent)
  }
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop')
    cdp.close()
    printSelfTimes(profile, 40)
  }
  const stats1 = await (await fetch(`${stack.dohUrl}/stats`)).json()
  const per = (k) => ((stats1[k] - stats0[k]) / changes).toFixed(2)
  console.log(
    `per change: zone lookups ${per('lookups')}, feed calls ${per('feedCalls')}, KV keys read ${per('kvKeys')}`
  )
  console.log(`runtime CPU per change: ${((runtimeCpuMs() - cpu0) / changes).toFixed(1)} ms`)
  for (const [k, v] of Object.entries(s)) {
    const r = summarize(v)
    if (v.length)
      console.log(
        `${k.padEnd(12)} p50 ${r.median.toFixed(1).padStart(6)}  p99 ${r.p99.toFixed(1).padStart(6)}  min ${r.min.toFixed(1)}  max ${r.max.toFixed(1)}`
      )
  }
} finally {
  await stack.close()
}
