/** @module BENCHMARKS.md: the API isolate's JS heap and CPU time, measured through workerd's inspector. */
import { readCpuLimit } from '../../scripts/lib/deploy-config.mjs'
import { ROOT } from '../../scripts/lib/stack.mjs'
import { n0 } from './format.mjs'

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`
const ms = (x) => `${n0(Math.round(x))} ms`
const verdict = (ok) => (ok ? '**met**' : '**not met**')

export function renderIsolate(r, md, targets) {
  const { heap, build, cron } = r
  const cpuLimit = readCpuLimit(ROOT)
  md.push('## API isolate: JS heap and CPU time', '')
  md.push(
    `Measured inside the API worker's isolate through workerd's V8 inspector (CPU on a stack of its own with ${cron.shards} D1 shards; heap on another, below). The ZoneBuilder Durable Objects run in the same isolate locally, so every figure includes whatever the isolate holds besides the request (its module code, caches, a builder at rest).`,
    ''
  )
  md.push(
    `**Heap**: V8's used JS heap of the API isolate (ArrayBuffers, such as a request body, are outside it), in a runtime of its own whose isolates may use at most ${heap.capMb} MB of JS heap each (V8's \`--max-heap-size\`): V8 collects as it would near a real limit, and a request whose live data does not fit makes it abort the runtime (the section would fail). Each request starts from a collected heap (\`gc()\`, \`--expose-gc\`) and is measured from the client sending it to the last byte of its response, from two sources: \`Runtime.getHeapUsage\` polled back to back through the inspector, which the isolate answers only between its tasks (never inside a synchronous stretch, nor while the runtime's one thread serves a simulator), and V8's own trace of every collection in that isolate (\`--trace-gc\`), printed from inside those stretches too. **Heap peak**: the most the heap held, garbage not yet collected included (the larger of the polled peak and the heap's size when any collection started); **most left by a full GC**: the most live data any full (mark-compact) collection during the request found. The batch posts ${n0(heap.batch.n)} A records to an empty zone and returns them all; the import sends a ${n0(heap.import.n)}-record zone file (${mb(heap.import.fileBytes)}, multipart) to an empty zone: the largest of each an account may send (the ceiling of an account's \`max_dns_batch_changes\`, and the import cap). With 100,000 of either the API isolate runs out of a ${heap.capMb} MB heap (\`node bench/tools/heap-cap.mjs ${heap.capMb} 100000 100000\`), which is why both limits are 50,000.`,
    ''
  )
  md.push(
    '| request | heap before | heap peak | most left by a full GC | full GCs / all GCs | retained after | wall |',
    '|---|---:|---:|---:|---:|---:|---:|'
  )
  for (const [key, label] of [
    ['batch', `${n0(heap.batch.n)}-change batch (\`POST …/dns_records/batch\`)`],
    ['import', `${n0(heap.import.n)}-record zone-file import (\`POST …/dns_records/import\`)`],
  ]) {
    const a = heap[key]
    md.push(
      `| ${label} | ${mb(a.before)} | ${mb(a.heapPeak)} | ${a.livePeak === null ? '–' : mb(a.livePeak)} | ${a.fullGcs} / ${a.gcs} | ${mb(a.retained)} | ${ms(a.wallMs)} |`
    )
  }
  md.push('')
  md.push(
    `**CPU**: a V8 CPU profile of the isolate (sampled every ${r.samplingUs} µs); CPU time is the time of the samples in JavaScript plus those in the garbage collector, not those where the isolate was idle or outside JavaScript (waiting on D1, KV, or the simulators, which run outside it). The full build is \`POST …/propagation/rebuild\` of a ${n0(build.size)}-record zone, built and quiet before; each builder invocation (an alarm or RPC step, at most one D1/KV budget's worth of work) starts where a breakpoint that never pauses, on the first line of the builder's step, logged it; its CPU is that of the samples until the next one starts (the bench's polls of the propagation endpoint every 500 ms, and of the builder's status every 2 s once the zone is visible, fall in there too). The cron is one \`scheduled\` run over the ${cron.shards} shards once that build is done: its sweep, deleted-zone erase, change-log retention and import cleanup each read every shard (the large zone's change log holds its million creates). On this shared 2-core machine a sample also counts time the isolate's thread waited for a core, so these are upper bounds.`,
    ''
  )
  md.push(
    '| what | invocations | CPU, heaviest invocation | its wall time | CPU, all | wall, all |'
  )
  md.push('|---|---:|---:|---:|---:|---:|')
  md.push(
    `| full build, ${n0(build.size)} records | ${build.invocations.length} | ${ms(build.heaviest.cpuMs)} (GC ${ms(build.heaviest.gcMs)}) | ${ms(build.heaviest.wallMs)} | ${ms(build.total.cpuMs)} | ${ms(build.wallMs)} |`
  )
  md.push(
    `| cron run, ${cron.shards} shards | 1 | ${ms(cron.cpuMs)} (GC ${ms(cron.gcMs)}) | ${ms(cron.wallMs)} | ${ms(cron.cpuMs)} | ${ms(cron.wallMs)} |`
  )
  md.push('')
  if (build.lastFullBuild?.phaseMs)
    md.push(
      `The builder's own wall time per phase of that build: ${Object.entries(
        build.lastFullBuild.phaseMs
      )
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(
          ', '
        )}. \`wrangler.toml\` sets \`[limits] cpu_ms = ${n0(cpuLimit)}\`: the heaviest invocation uses ${((100 * build.heaviest.cpuMs) / cpuLimit).toFixed(1)} % of it.`,
      ''
    )

  for (const [key, what] of [
    ['batch', `${n0(heap.batch.n)}-change batch (the most an account may set)`],
    ['import', `${n0(heap.import.n)}-record zone-file import (the import cap)`],
  ])
    targets.push([
      'Memory',
      `API isolate JS heap for a ${what} < ${heap.capMb} MB`,
      `completes with the heap capped at ${heap.capMb} MB; peak ${mb(heap[key].heapPeak)} (garbage included)${heap[key].livePeak === null ? '' : `, at most ${mb(heap[key].livePeak)} live after a full GC`}`,
      verdict(heap[key].heapPeak < heap.capMb * 2 ** 20),
    ])
  targets.push([
    'CPU',
    `heaviest full-build invocation (${n0(build.size)} records) within \`cpu_ms\` (${n0(cpuLimit)})`,
    `${ms(build.heaviest.cpuMs)} CPU (${ms(build.heaviest.wallMs)} wall)`,
    verdict(build.size >= 1_000_000 && build.heaviest.cpuMs < cpuLimit),
  ])
  targets.push([
    'CPU',
    `one cron run over ${cron.shards} D1 shards within \`cpu_ms\` (${n0(cpuLimit)})`,
    `${ms(cron.cpuMs)} CPU (${ms(cron.wallMs)} wall)`,
    verdict(cron.cpuMs < cpuLimit),
  ])
}
