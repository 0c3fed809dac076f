#!/usr/bin/env node
/**
 * @module Does a batch and a zone-file import fit the API isolate with its JS heap capped? (not
 * part of `pnpm bench`). Runs the isolate section's heap measurement on a runtime whose isolates
 * get V8's `--max-heap-size=<cap>`: the import, then the batch, each of the given size. Either
 * both complete (and their figures are printed), or V8 aborts the runtime, and the GC trace says
 * whether the isolate that ran out was the API's.
 * usage: node bench/tools/heap-cap.mjs [capMB=100] [batch=50000] [import=50000]
 */
import { apiClient } from '../lib/api.mjs'
import { inspectWorker, isolateContext } from '../lib/inspector.mjs'
import { startBenchStack } from '../lib/stack.mjs'
import { apiIsolateAddress, heapFigures, heapStackOptions, trace } from '../isolate.mjs'

const [cap = 100, batch = 50_000, imported = 50_000] = process.argv.slice(2).map(Number)
const log = (m) => console.log(`[heap-cap] ${m}`)
const options = await heapStackOptions(cap)
const stack = await startBenchStack({
  ...options,
  // Sizes above the import cap are let through, to find where the heap runs out.
  apiBindings: { MAX_IMPORT_RECORDS: String(imported) },
})
const cdp = await inspectWorker(options.inspectorPort, 'edgedns-api')
const evaluate = await isolateContext(cdp)
const api = await apiIsolateAddress(evaluate, trace)
try {
  await heapFigures({ api: apiClient(stack.url, stack.token), stack, log }, cdp, evaluate, {
    batch,
    import: imported,
  })
  log(`a ${imported}-record import and a ${batch}-change batch fit a ${cap} MB heap`)
} catch (e) {
  // Lines printed as V8 aborts may be lost: compare the most each isolate's collections left.
  const most = new Map()
  for (const e of trace.events) most.set(e.isolate, Math.max(most.get(e.isolate) ?? 0, e.after))
  const others = [...most].filter(([k]) => k !== api).map(([, v]) => v)
  log(
    `failed (${e.message}); the most a collection left: ${most.get(api) ?? '–'} MB in the API isolate, ${Math.max(0, ...others)} MB in any other`
  )
  process.exitCode = 1
} finally {
  cdp.close()
  await stack.close().catch(() => {})
}
