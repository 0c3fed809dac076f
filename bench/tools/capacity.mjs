#!/usr/bin/env node
/**
 * @module `node bench/tools/capacity.mjs [results.json] [--q=10000] [--r=1]`: the billed-operation
 * inputs of docs/capacity.md ("Billed operations of the read path") from a bench run's counters
 * (default bench/results/latest.json, sections `zones-10k`, `zones-100k`, `production-model`), and
 * the per-million-queries table worked out with them at Q queries/s and R seconds per confirmation.
 * Measures nothing.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const opt = (name, dflt) =>
  Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt)
const file =
  args.find((a) => !a.startsWith('--')) ??
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../results/latest.json')
const Q = opt('q', 10_000)
const R = opt('r', 1)
const S = JSON.parse(readFileSync(file, 'utf8')).sections

const zipf = S['zones-10k']?.zipf?.kv
const outside = S['zones-10k']?.outside?.kv
const pass = S['zones-100k']?.pass
if (!zipf) throw new Error(`${file}: no zones-10k results`)

// Keys per confirmation (zone key and head slots; fewer when a zone's next slot answers), and the
// keys per query beyond them: separable only once confirmations stop (the feed), else unknown.
const kConf = zipf.revalidations > 0 ? zipf.kvKeys / zipf.revalidations : null
const kQ = zipf.revalidations > 0 ? null : zipf.kvKeys / zipf.queries
const kOut = outside?.kvKeysPerLookup ?? null
// A pass query mostly meets a zone the isolate does not hold yet.
const kCold = pass?.kvKeys && pass.zones ? pass.kvKeys / pass.zones : null
const feedPerQuery = zipf.feedCalls == null ? null : zipf.feedCalls / zipf.queries
const changes = ['one', 'apex']
  .map((k) => S['production-model']?.[k])
  .filter((x) => x?.kv)
  .map((x) => ({ keys: x.kv.kvKeys, n: x.commit.n + 2 }))
const b = changes.length
  ? changes.reduce((a, c) => a + c.keys, 0) / changes.reduce((a, c) => a + c.n, 0)
  : null

const f = (x, d = 3) => (x === null || !Number.isFinite(x) ? '–' : x.toFixed(d))
const n = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–')
console.log(`inputs from ${file}`)
console.log(`k_conf (keys per confirmation)        ${f(kConf, 2)}`)
console.log(
  `k_q (other keys per query, steady)    ${f(kQ, 4)}${kQ === null ? ` (not separable while confirmations run; all keys per query ${f(zipf.kvKeysPerLookup, 3)})` : ''}`
)
console.log(`k_out (keys per outside query)        ${f(kOut, 2)}`)
console.log(
  `k_cold (keys per zone held, first pass) ${f(kCold, 2)} (confirmations during the pass included)`
)
console.log(`feed calls per query (measured)       ${f(feedPerQuery, 4)}`)
console.log(`b (DoH keys per change, with polling) ${f(b, 2)}`)
console.log('')
console.log(`Per million DoH queries at Q = ${n(Q)} q/s, R = ${R} s`)
console.log('(today: k_q left out while unknown; feed: – until a run without confirmations)')
console.log(
  '| active zones Z | isolates I | Z_i | today: KV reads | feed: KV reads | feed: DO requests | D1 rows read |'
)
console.log('|---:|---:|---:|---:|---:|---:|---:|')
for (const Z of [10, 1000, 100_000])
  for (const I of [1, 100, 1000]) {
    const Zi = Math.min(Z, (Q * R) / I)
    const today = kConf === null ? NaN : (1e6 * ((I * Zi * kConf) / R + Q * (kQ ?? 0))) / Q
    const feed = kQ === null ? NaN : 1e6 * kQ
    const doRequests = (1e6 * I) / R / Q
    console.log(
      `| ${n(Z)} | ${n(I)} | ${n(Zi)} | ${n(today)} | ${n(feed)} | ${n(doRequests)} | 0 |`
    )
  }
console.log('')
console.log(
  `Busiest feed object at 1,000 isolates: ${n(1000 / R)} req/s on the primary without replicas; ${n(1000 / R / 2)} req/s per replica with 2 replicas in one region.`
)
