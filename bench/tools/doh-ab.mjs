#!/usr/bin/env node
/**
 * @module A/B of DoH worker variants in one runtime, interleaved with the empty worker so machine
 * drift hits every variant alike: `node bench/tools/doh-ab.mjs variants.json [rounds] [seconds]`.
 * variants.json: [{ "name": "base", "root": "/path/to/checkout", "vars": { "REVALIDATE_MS": "5" } }, …]
 * (`root` is bundled with its own wrangler; omit it for this checkout; `entry`, a module path,
 * replaces the worker's `main`, so a variant can be one file that imports the worker's modules).
 * Zones: the bench's small zone (1,000) and a large one (BENCH_LARGE, default 10,000). Prints each
 * variant's saturation q/s per mix as a ratio to the mean of the empty-worker runs just before and
 * after it (median over rounds). Environment: AB_MIXES (comma-separated mix names, default all);
 * AB_SAME=1 feeds the empty worker the mix's own requests (the bench's "same requests" ratio)
 * instead of `GET /`; AB_WARM is each variant's warm-up per mix in seconds (default 2; a whole-zone
 * mix over 1,000,000 names needs about 20 to read its tail buckets).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ROOT } from '../../scripts/lib/stack.mjs'
import { localDohSettings } from '../../scripts/lib/dev-vars.mjs'
import { apiClient } from '../lib/api.mjs'
import { createBenchZone } from '../lib/fixtures.mjs'
import { dohStats, statsDelta, wirePaths } from '../lib/dohload.mjs'
import { runLoad } from '../lib/load.mjs'
import { DIRECT, startBenchStack, workerOptions } from '../lib/stack.mjs'
import { summarize } from '../lib/stats.mjs'

const [file, roundsArg, secondsArg] = process.argv.slice(2)
const variants = JSON.parse(readFileSync(file, 'utf8'))
const rounds = Number(roundsArg ?? 5)
const seconds = Number(secondsArg ?? 3)
const large = Number(process.env.BENCH_LARGE ?? 10_000)
const only = process.env.AB_MIXES ? new Set(process.env.AB_MIXES.split(',')) : null
const same = process.env.AB_SAME === '1'
const warmSeconds = Number(process.env.AB_WARM ?? 2)
const log = (m) => console.log(`[ab] ${m}`)

function bundleAt(root, outdir, entry) {
  execFileSync(
    path.join(root, 'node_modules/.bin/wrangler'),
    [
      'deploy',
      '--dry-run',
      '--outdir',
      outdir,
      '-c',
      'workers/doh/wrangler.jsonc',
      ...(entry ? [path.resolve(entry)] : []),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    }
  )
  return path.join(
    outdir,
    readdirSync(outdir).find((f) => f.endsWith('.js'))
  )
}

const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-ab-'))
const extraWorkers = variants.map((v, i) => {
  const script = bundleAt(v.root ?? ROOT, path.join(dir, `dist-${i}`), v.entry)
  return workerOptions(`doh-${v.name}`, 'workers/doh/wrangler.jsonc', script, {
    bindings: { DOH_STATS: '1', ...localDohSettings(), ...(v.vars ?? {}) },
    unsafeDirectSockets: DIRECT,
  })
})
const stack = await startBenchStack({ extraWorkers })
try {
  const api = apiClient(stack.url, stack.token)
  const small = await createBenchZone({ api, log }, 'small.bench.example', 1000)
  // The large zone is built only when a mix reads it (its build takes a while at 1,000,000).
  const needLarge = !only || only.has('zipf') || only.has('uniform')
  const big = needLarge
    ? await createBenchZone({ api, log }, 'large.bench.example', large)
    : { name: 'large.bench.example', size: large }
  const allMixes = [
    { mix: 'existing-1k', paths: wirePaths(small.name, small.size, 'existing') },
    { mix: 'nxdomain-1k', paths: wirePaths(small.name, small.size, 'nxdomain') },
    { mix: 'zipf', gen: { kind: 'zipf', s: 1, zone: big.name, size: big.size, prefix: 'base-' } },
    { mix: 'uniform', gen: { kind: 'uniform', zone: big.name, size: big.size, prefix: 'base-' } },
  ]
  const mixes = only ? allMixes.filter((m) => only.has(m.mix)) : allMixes
  const emptyLoad = (m, seed) =>
    runLoad({
      url: stack.emptyUrl,
      ...(same ? { paths: m.paths, gen: m.gen } : { paths: ['/'] }),
      connections: 32,
      duration: seconds,
      seed,
    })
  const urls = Object.fromEntries(
    await Promise.all(variants.map(async (v) => [v.name, await stack.urlOf(`doh-${v.name}`)]))
  )
  const ratios = {}
  const kv = {}
  for (const m of mixes)
    for (const v of variants)
      await runLoad({
        url: urls[v.name],
        paths: m.paths,
        gen: m.gen,
        connections: 16,
        duration: warmSeconds,
      })
  for (let r = 0; r < rounds; r++) {
    for (const m of mixes) {
      const order = r % 2 === 0 ? variants : [...variants].reverse()
      let before = (await emptyLoad(m, r + 1)).rps
      for (const v of order) {
        const s0 = await dohStats(urls[v.name])
        const got = (
          await runLoad({
            url: urls[v.name],
            paths: m.paths,
            gen: m.gen,
            connections: 32,
            duration: seconds,
            seed: r + 1,
          })
        ).rps
        const s1 = await dohStats(urls[v.name])
        const after = (await emptyLoad(m, r + 1)).rps
        ;((ratios[m.mix] ??= {})[v.name] ??= []).push({
          ratio: got / ((before + after) / 2),
          rps: got,
        })
        ;((kv[m.mix] ??= {})[v.name] ??= []).push(statsDelta(s0, s1, seconds))
        before = after
      }
    }
    log(`round ${r + 1}/${rounds} done`)
  }
  for (const m of mixes) {
    for (const v of variants) {
      const rs = ratios[m.mix][v.name]
      const ratio = summarize(rs.map((x) => x.ratio))
      const rps = summarize(rs.map((x) => x.rps))
      const k = kv[m.mix][v.name]
      const calls = summarize(k.map((x) => x.kvCallsPerLookup ?? 0)).median
      const reval = summarize(k.map((x) => x.revalidationsPerSecond ?? 0)).median
      const hits = summarize(k.map((x) => x.answerHitRate ?? 0)).median
      console.log(
        `${m.mix.padEnd(12)} ${v.name.padEnd(14)} ratio ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)}–${ratio.max.toFixed(3)})  ${Math.round(rps.median)} q/s  kv calls/q ${calls.toFixed(3)}  reval/s ${Math.round(reval)}  answer hits ${(hits * 100).toFixed(0)}%`
      )
    }
  }
} finally {
  await stack.close()
}
