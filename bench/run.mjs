#!/usr/bin/env node
/**
 * `pnpm bench [--quick] [--peers] [--only a,b]`: runs the benchmarks against the workers under
 * Miniflare (driven directly, not through `wrangler dev`), then rewrites BENCHMARKS.md, the charts
 * beside it (bench/charts/*.svg) and the raw results (bench/results/latest.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { ROOT } from '../scripts/lib/stack.mjs'
import { apiClient } from './lib/api.mjs'
import { startBenchStack } from './lib/stack.mjs'
import { SECTIONS } from './sections.mjs'
import { renderReport } from './report.mjs'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const peers = args.includes('--peers')
const onlyArg = args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? (args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined)
const only = onlyArg ? new Set(onlyArg.split(',')) : null

const started = Date.now()
const log = (msg) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${msg}`)

function versionOf(cmd, args = ['--version']) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n')[0]
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
}

log(`machine: ${machine.cpus}, ${machine.memory}, node ${machine.node}, ${machine.mode} run`)
log('bundling the workers and starting Miniflare…')
const stack = await startBenchStack()
const api = apiClient(stack.url, stack.token)
const results = { machine, sections: {} }
try {
  for (const section of SECTIONS) {
    if (only && !only.has(section.id)) continue
    if (section.peers && !peers) continue
    log(`── ${section.title}`)
    try {
      results.sections[section.id] = await section.run({ api, stack, quick, log })
    } catch (e) {
      log(`${section.id} failed: ${e.stack ?? e}`)
      results.sections[section.id] = { error: String(e.message ?? e) }
    }
  }
} finally {
  await stack.close()
}

const resultsDir = path.join(ROOT, 'bench/results')
const chartsDir = path.join(ROOT, 'bench/charts')
mkdirSync(resultsDir, { recursive: true })
mkdirSync(chartsDir, { recursive: true })
writeFileSync(path.join(resultsDir, 'latest.json'), JSON.stringify(results, null, 1))
const { markdown, charts } = renderReport(results)
for (const [file, svg] of Object.entries(charts)) writeFileSync(path.join(chartsDir, file), svg)
writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), markdown)
log(`wrote BENCHMARKS.md, bench/results/latest.json and ${Object.keys(charts).length} charts in ${((Date.now() - started) / 1000).toFixed(0)} s`)
const failed = Object.entries(results.sections).filter(([, r]) => r?.error)
if (failed.length > 0) {
  log(`sections that failed: ${failed.map(([id]) => id).join(', ')}`)
  process.exitCode = 1
}
