#!/usr/bin/env node
/**
 * @module Where the DoH worker's time goes in workerd itself under a whole-zone mix: a CPU profile
 * of the DoH isolate (workerd's inspector) while the load generator sends the mix.
 *
 *   node bench/tools/doh-profile.mjs [mix=zipf] [names=1000000] [seconds=8]
 *
 * Environment: DOH_VARS (JSON) adds to the DoH worker's bindings (e.g. `{"ANSWER_CACHE":"0"}`);
 * PROFILE_OUT writes the raw profile (`.cpuprofile`, for Chrome DevTools); READ_SETTINGS=deployed
 * runs the DoH worker with the deployed read-path settings and the cron's maintenance once after
 * the zone is built (the zone feed then holds it, as in the zones-10k section: the mix `outside`
 * is then answered from the feed, not KV). The zone is built and
 * warmed (10 s of the same mix) before the profiled run. Prints the load's q/s, the functions with
 * the most self time, and the share of samples in the garbage collector.
 */
import { writeFileSync } from 'node:fs'
import { apiClient } from '../lib/api.mjs'
import { printSelfTimes } from '../lib/cpu-profile.mjs'
import { inspectWorker } from '../lib/inspector.mjs'
import { createBenchZone } from '../lib/fixtures.mjs'
import { dohStats, statsDelta } from '../lib/dohload.mjs'
import { runLoad } from '../lib/load.mjs'
import { waitQuiet } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'

const [mixArg, namesArg, secondsArg] = process.argv.slice(2)
const mix = mixArg ?? 'zipf'
const size = Number(namesArg ?? 1_000_000)
const seconds = Number(secondsArg ?? 8)
const log = (m) => console.log(`[profile] ${m}`)
const INSPECTOR_PORT = 9239

const stack = await startBenchStack({
  inspectorPort: INSPECTOR_PORT,
  dohBindings: JSON.parse(process.env.DOH_VARS ?? '{}'),
  readSettings: process.env.READ_SETTINGS ?? 'local',
})
try {
  const api = apiClient(stack.url, stack.token)
  const zone = await createBenchZone({ api, log }, 'large.bench.example', size)
  await waitQuiet(stack, { large: zone }, log)
  if (process.env.READ_SETTINGS === 'deployed') await stack.cron()
  const gen = { kind: mix, s: 1, zone: zone.name, size: zone.size, prefix: 'base-' }
  log('warming 10 s')
  await runLoad({ url: stack.dohUrl, gen, connections: 16, duration: 10, seed: 77 })
  const cdp = await inspectWorker(INSPECTOR_PORT, 'edgedns-doh')
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  const s0 = await dohStats(stack.dohUrl)
  await cdp.send('Profiler.start')
  const load = await runLoad({ url: stack.dohUrl, gen, connections: 32, duration: seconds })
  const result = await cdp.send('Profiler.stop')
  const s1 = await dohStats(stack.dohUrl)
  cdp.close()
  const delta = statsDelta(s0, s1, seconds)
  log(
    `${mix}: ${Math.round(load.rps)} q/s, answer hits ${(100 * (delta.answerHitRate ?? 0)).toFixed(1)} %`
  )
  if (process.env.PROFILE_OUT)
    writeFileSync(process.env.PROFILE_OUT, JSON.stringify(result.profile))
  printSelfTimes(result.profile, 40)
} finally {
  await stack.close()
}
