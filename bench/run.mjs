#!/usr/bin/env node
/**
 * @module `pnpm bench [--quick] [--peers] [--only a,b] [--merge]`: runs the benchmarks against the workers under
 * Miniflare (driven directly, not through `wrangler dev`), then rewrites BENCHMARKS.md, the charts
 * beside it (bench/charts/*.svg) and the raw results (bench/results/latest.json).
 */
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { ROOT } from '../scripts/lib/stack.mjs'
import { apiClient } from './lib/api.mjs'
import { startBenchStack } from './lib/stack.mjs'
import { SECTIONS } from './sections.mjs'
import { RESULTS, writeOutputs } from './lib/output.mjs'
import { readFileSync } from 'node:fs'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const peers = args.includes('--peers')
const onlyArg =
  args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ??
  (args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined)
const only = onlyArg ? new Set(onlyArg.split(',')) : null
/** --merge (with --only): the sections not run are kept from the last results, and the report says so. */
const merge = args.includes('--merge')

const started = Date.now()
const log = (msg) =>
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${msg}`)

function versionOf(cmd, args = ['--version']) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')[0]
  } catch {
    return null
  }
}

const machine = {
  date: new Date().toISOString(),
  cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
  memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  os: `${os.type()} ${os.release()}`,
  node: process.version,
  wrangler: versionOf(path.join(ROOT, 'node_modules/.bin/wrangler')),
  workerd: versionOf(path.join(ROOT, 'node_modules/.bin/workerd')),
  mode: quick ? 'quick' : 'full',
  loadStart: os.loadavg(),
}

log(`machine: ${machine.cpus}, ${machine.memory}, node ${machine.node}, ${machine.mode} run`)
const results = { machine, sections: {} }
/** Shared by the sections without a stack of their own: one stack, the zones, earlier results. */
const shared = { results }
let sharedStack = null

async function openStack(section) {
  if (section.ownStack || !sharedStack) {
    log('bundling the workers and starting Miniflare…')
    // A section's stack options may need work before the runtime starts (a store written directly).
    const stack = await startBenchStack((await section.stackOptions?.({ quick, log })) ?? {})
    const entry = { stack, api: apiClient(stack.url, stack.token) }
    if (section.ownStack) return { ...entry, done: () => stack.close() }
    sharedStack = entry
  }
  return { ...sharedStack, done: async () => {} }
}

try {
  for (const section of SECTIONS) {
    if (only && !only.has(section.id)) continue
    if (section.peers && !peers) continue
    log(`── ${section.title}`)
    const t0 = Date.now()
    let opened = null
    try {
      opened = await openStack(section)
      results.sections[section.id] = await section.run({
        api: opened.api,
        stack: opened.stack,
        quick,
        log,
        shared,
      })
    } catch (e) {
      log(`${section.id} failed: ${e.stack ?? e}`)
      results.sections[section.id] = { error: String(e.message ?? e) }
    } finally {
      await opened?.done()
    }
    if (results.sections[section.id])
      results.sections[section.id].seconds = Math.round((Date.now() - t0) / 1000)
  }
} finally {
  await sharedStack?.stack.close()
}
results.machine.seconds = Math.round((Date.now() - started) / 1000)
results.machine.loadEnd = os.loadavg()

if (merge) {
  const previous = JSON.parse(readFileSync(RESULTS, 'utf8'))
  const kept = Object.keys(previous.sections).filter((id) => !(id in results.sections))
  for (const id of kept) results.sections[id] = previous.sections[id]
  const ran = Object.keys(results.sections).filter((id) => !kept.includes(id))
  // Each section merged in keeps the date of the run that measured it, and its CPU when that is
  // not the CPU of the run dated in the report (its figures compare rows of one run, not runs).
  const where = machine.cpus === previous.machine.cpus ? '' : ` on ${machine.cpus}`
  const merged = {
    ...previous.machine.merged,
    ...Object.fromEntries(ran.map((id) => [id, `${machine.date}${where}`])),
  }
  results.machine = { ...previous.machine, merged, note: mergedNote(merged) }
}
const charts = writeOutputs(results)

/** The report's note on sections measured in later runs than the one dated in it. */
function mergedNote(merged) {
  const list = Object.entries(merged)
    .map(([id, date]) => `${id} (${date})`)
    .join(', ')
  return `sections measured in later runs and merged in (on the same machine unless another CPU is named): ${list}; the rest are from the run dated above`
}
log(
  `wrote BENCHMARKS.md, bench/results/latest.json and ${charts} charts in ${((Date.now() - started) / 1000).toFixed(0)} s`
)
const failed = Object.entries(results.sections).filter(([, r]) => r?.error)
if (failed.length > 0) {
  log(`sections that failed: ${failed.map(([id]) => id).join(', ')}`)
  process.exitCode = 1
}
