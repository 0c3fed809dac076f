/**
 * @module The API isolate measured from inside, through workerd's V8 inspector. Heap: in a runtime
 * of its own whose isolates are capped at a JS heap of HEAP_CAP_MB, the largest zone-file import
 * and batch an account may send, watched by `Runtime.getHeapUsage` polls and V8's GC trace of the
 * API isolate. CPU (a stack with 3 D1 shards): a CPU profile of the isolate (the ZoneBuilder
 * Durable Objects run in it too) around a full build of the large zone, split per builder
 * invocation, and around one cron run over the 3 shards.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { freePort } from '../scripts/lib/stack.mjs'
import { aRecord, apiClient } from './lib/api.mjs'
import { startBenchStack } from './lib/stack.mjs'
import { createBenchZone, largeSize } from './lib/fixtures.mjs'
import { gcTrace, cpuOf, inspectWorker, isolateContext, pollHeap } from './lib/inspector.mjs'
import { waitBuilt, waitQuiet } from './lib/propagation.mjs'

const SHARDS = 3
const API_WORKER = 'edgedns-api'
/** Profiler sampling interval (µs). */
const SAMPLING_US = 250

/** The JS heap each isolate of the heap runtime may use (MB). */
const HEAP_CAP_MB = 100

let inspectorPort
/** The runtime's GC trace, fed by the stack from the start. */
export const trace = gcTrace()
/** The section's main stack: 3 shards, the inspector on a free port. */
export async function isolateStack() {
  inspectorPort = await freePort()
  return { inspectorPort, shards: SHARDS }
}

/**
 * A stack for heap figures: gc() (each request starts from a collected heap), V8's GC trace fed
 * to `trace`, and `--max-heap-size` when `capMb` is given.
 */
export async function heapStackOptions(capMb) {
  return {
    inspectorPort: await freePort(),
    shards: 1,
    v8Flags: ['--expose-gc', '--trace-gc', ...(capMb ? [`--max-heap-size=${capMb}`] : [])],
    onRuntimeLog: trace.feed,
  }
}

/** A zone file of `n` A records (what `aRecord` posts), relative names under `$ORIGIN`. */
function zoneFile(origin, n) {
  const lines = [`$ORIGIN ${origin}.`, '$TTL 300']
  for (let i = 0; i < n; i++) {
    const r = aRecord('imp', i)
    lines.push(`${r.name} 300 IN A ${r.content}`)
  }
  return lines.join('\n') + '\n'
}

async function importFile(stack, zoneId, text) {
  const form = new FormData()
  form.append('file', new Blob([text]), 'zone.txt')
  const res = await fetch(`${stack.url}/client/v4/zones/${zoneId}/dns_records/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}` },
    body: form,
  })
  const json = await res.json()
  if (!json.success) throw new Error(`import → ${res.status} ${JSON.stringify(json.errors)}`)
  return json.result
}

/**
 * A collection in the API isolate (`gc()`) whose trace line marks a point in that isolate's own
 * sequence of collections: resolves with the index of that line once it has arrived.
 */
async function gcMark(evaluate, gcTrace, isolate) {
  const from = gcTrace.events.length
  await evaluate('gc()')
  for (let i = 0; i < 100; i++) {
    const k = gcTrace.events.findIndex(
      (e, at) => at >= from && e.isolate === isolate && /testing/.test(e.reason)
    )
    if (k >= 0) return k
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('the GC trace line of a gc() in the API isolate did not arrive')
}

/**
 * The API isolate's heap around `work()`: the used heap polled through the inspector (before,
 * peak) and V8's own GC trace of that isolate (every collection's size before and after), between
 * two collections of its own that mark the request's start and end in the trace (its lines arrive
 * late, through the runtime's output).
 */
async function heapDuring(cdp, evaluate, gcTrace, isolate, work) {
  const start = await gcMark(evaluate, gcTrace, isolate)
  const poll = pollHeap(cdp)
  const t0 = performance.now()
  const detail = await work()
  const wallMs = performance.now() - t0
  const h = await poll.stop()
  const end = await gcMark(evaluate, gcTrace, isolate)
  const { usedSize: retained } = await cdp.send('Runtime.getHeapUsage')
  const gcs = gcTrace.events.slice(start + 1, end).filter((e) => e.isolate === isolate)
  const MB = 2 ** 20
  const full = gcs.filter((e) => /Mark/.test(e.kind))
  return {
    before: h.before,
    polledPeak: h.peak,
    polls: h.samples,
    gcs: gcs.length,
    fullGcs: full.length,
    // The heap V8 let grow before collecting (garbage included), and the most a full collection left.
    heapPeak: Math.max(h.peak, ...gcs.map((e) => e.before * MB)),
    livePeak: full.length ? Math.max(...full.map((e) => e.after * MB)) : null,
    retained,
    wallMs,
    ...detail,
  }
}

/** The address V8's GC trace gives the API isolate: the one that collects when asked to (`gc()`). */
export async function apiIsolateAddress(evaluate, gcTrace) {
  const from = gcTrace.events.length
  await evaluate('gc()')
  for (let i = 0; i < 50; i++) {
    const hit = gcTrace.events.slice(from).find((e) => /testing/.test(e.reason))
    if (hit) return hit.isolate
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('no GC trace line for the API isolate (is --trace-gc on?)')
}

/**
 * The heap of the largest batch and import an account may send (the ceiling of
 * `max_dns_batch_changes`, the import cap), or of `sizes`; the import runs first.
 */
export async function heapFigures({ api, stack, quick, log }, cdp, evaluate, sizes = {}) {
  const batchN = sizes.batch ?? (quick ? 10_000 : 50_000)
  const importN = sizes.import ?? (quick ? 10_000 : 50_000)
  const mb = (x) => (x === null ? '–' : `${(x / 2 ** 20).toFixed(1)} MB`)
  const gcTrace = trace
  {
    const isolate = await apiIsolateAddress(evaluate, gcTrace)
    const tag = Date.now().toString(36)
    const iz = await api.createZone(`heap-i-${tag}.example`)
    await waitBuilt(api, iz.id)
    const text = zoneFile(iz.name, importN)
    const imp = await heapDuring(cdp, evaluate, gcTrace, isolate, async () => {
      const r = await importFile(stack, iz.id, text)
      if (r.recs_added !== importN) throw new Error(`import added ${r.recs_added} of ${importN}`)
      return { n: importN, fileBytes: Buffer.byteLength(text) }
    })
    const bz = await api.createZone(`heap-b-${tag}.example`)
    await waitBuilt(api, bz.id)
    const posts = Array.from({ length: batchN }, (_, i) => aRecord('mem', i))
    const batch = await heapDuring(cdp, evaluate, gcTrace, isolate, async () => {
      const res = await api.batch(bz.id, { posts })
      return { n: batchN, serverMs: res.serverMs }
    })
    for (const [what, x] of [
      [`${batchN.toLocaleString('en-US')}-change batch`, batch],
      [`${importN.toLocaleString('en-US')}-record import`, imp],
    ])
      log(
        `isolate heap: ${what}: heap peak ${mb(x.heapPeak)}, most left by a full GC ${mb(x.livePeak)} (${x.fullGcs} of ${x.gcs} GCs), polled peak ${mb(x.polledPeak)}`
      )
    // Their builds run before anything else is measured.
    await waitBuilt(api, bz.id, { timeoutMs: 3_600_000 })
    await waitBuilt(api, iz.id, { timeoutMs: 3_600_000 })
    return { batch, import: imp }
  }
}

/**
 * Marks the start of every ZoneBuilder invocation: a breakpoint that never pauses on the first
 * line of its `#step` (one invocation's worth of building) appends the isolate's clock to a list.
 */
async function markSteps(cdp, evaluate, bundleFile) {
  const source = readFileSync(bundleFile, 'utf8').split('\n')
  const line = source.findIndex((l) => /^\s*async #step\(\) \{/.test(l))
  if (line < 0) throw new Error('ZoneBuilder #step not found in the API bundle')
  const scripts = []
  cdp.on('Debugger.scriptParsed', (s) => scripts.push(s))
  await cdp.send('Debugger.enable')
  await new Promise((r) => setTimeout(r, 200))
  const base = path.basename(bundleFile)
  const script = scripts.find((s) => s.url.endsWith(base))
  const r = await cdp.send('Debugger.setBreakpointByUrl', {
    lineNumber: line + 1,
    ...(script ? { url: script.url } : { urlRegex: `${base}$` }),
    condition: '(globalThis.__benchSteps ??= []).push(Date.now()), false',
  })
  if (r.locations.length === 0) throw new Error(`breakpoint at ${base}:${line + 2} not resolved`)
  return {
    async take() {
      const list = JSON.parse(await evaluate('JSON.stringify(globalThis.__benchSteps ?? [])'))
      await evaluate('globalThis.__benchSteps = []')
      return list
    },
    async clear() {
      await cdp.send('Debugger.removeBreakpoint', { breakpointId: r.breakpointId })
      await cdp.send('Debugger.disable')
    },
  }
}

/** Wall clock (ms) → the profile's clock (µs, CLOCK_MONOTONIC, which this process's hrtime also reads). */
function monoOffsetUs() {
  const mono = Number(process.hrtime.bigint() / 1000n)
  return Date.now() * 1000 - mono
}

async function profiled(cdp, work) {
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US })
  await cdp.send('Profiler.start')
  const t0 = performance.now()
  const detail = await work()
  const wallMs = performance.now() - t0
  const { profile } = await cdp.send('Profiler.stop')
  await cdp.send('Profiler.disable')
  return { profile, wallMs, detail }
}

async function fullBuildCpu({ api, stack, quick, log }, cdp, evaluate) {
  const size = largeSize(quick)
  const zone = await createBenchZone({ api, log }, 'cpu.bench.example', size)
  await waitQuiet(stack, { zone }, log, { timeoutMs: 600_000 })
  const bundleDir = path.join(stack.dir, 'dist-api')
  const bundle = path.join(
    bundleDir,
    readdirSync(bundleDir).find((f) => f.endsWith('.js'))
  )
  const steps = await markSteps(cdp, evaluate, bundle)
  await steps.take()
  const builder = await stack.builder(zone.id)
  const offset = monoOffsetUs()
  const { profile, wallMs } = await profiled(cdp, async () => {
    const { result } = await api.call('POST', `/zones/${zone.id}/propagation/rebuild`, {})
    await waitBuilt(api, zone.id, { seq: result.seq, everyMs: 500, timeoutMs: 3_600_000 })
    // Visible is not done: the prune of stale bucket keys follows the switch.
    while ((await builder.status()).full) await new Promise((r) => setTimeout(r, 2000))
  })
  if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile))
  const starts = (await steps.take()).map((ms) => ms * 1000 - offset)
  await steps.clear()
  const status = await builder.status()
  const invocations = starts.map((from, i) => {
    const to = starts[i + 1] ?? profile.endTime
    return { wallMs: (to - from) / 1000, ...cpuOf(profile, from, to) }
  })
  const heaviest = invocations.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a), invocations[0])
  const total = cpuOf(profile)
  log(
    `isolate CPU: full build of ${size.toLocaleString('en-US')} records in ${invocations.length} invocations, heaviest ${heaviest?.cpuMs.toFixed(0)} ms CPU (${heaviest?.wallMs.toFixed(0)} ms wall), all ${total.cpuMs.toFixed(0)} ms CPU in ${(wallMs / 1000).toFixed(1)} s`
  )
  return {
    size,
    wallMs,
    total,
    heaviest,
    invocations,
    lastFullBuild: status.lastFullBuild,
    beforeFirstStepMs: starts.length ? cpuOf(profile, -Infinity, starts[0]).cpuMs : null,
  }
}

async function cronCpu({ stack, log }, cdp) {
  const { profile, wallMs } = await profiled(cdp, async () => {
    await stack.cron()
  })
  const cpu = cpuOf(profile)
  log(
    `isolate CPU: one cron run over ${SHARDS} shards ${cpu.cpuMs.toFixed(0)} ms CPU (${wallMs.toFixed(0)} ms wall)`
  )
  return { shards: SHARDS, wallMs, ...cpu }
}

/**
 * The heap figures come from a runtime of their own whose isolates are capped at HEAP_CAP_MB of
 * JS heap (`--max-heap-size`): V8 then collects as it would near a real limit, and a request whose
 * live data does not fit makes V8 abort the runtime (the section then fails).
 */
async function cappedHeapFigures(ctx) {
  const options = await heapStackOptions(HEAP_CAP_MB)
  const stack = await startBenchStack(options)
  const cdp = await inspectWorker(options.inspectorPort, API_WORKER)
  try {
    const evaluate = await isolateContext(cdp)
    const api = apiClient(stack.url, stack.token)
    return { capMb: HEAP_CAP_MB, ...(await heapFigures({ ...ctx, api, stack }, cdp, evaluate)) }
  } finally {
    cdp.close()
    await stack.close()
  }
}

export async function runIsolateBench(ctx) {
  const heap = await cappedHeapFigures(ctx)
  const cdp = await inspectWorker(inspectorPort, API_WORKER)
  try {
    const evaluate = await isolateContext(cdp)
    const build = await fullBuildCpu(ctx, cdp, evaluate)
    const cron = await cronCpu(ctx, cdp)
    return { samplingUs: SAMPLING_US, heap, build, cron }
  } finally {
    cdp.close()
  }
}
