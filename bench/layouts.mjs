/**
 * Write-and-read pipeline A/B of two code trees (not part of `pnpm bench`; the bucket layout
 * decision, docs/decisions/kv-layout-buckets.md, was measured with it). Runs the workers of the code tree given as ROOT (default: this
 * tree) under Miniflare, with KV_KEY_WRITE_INTERVAL_MS=0 (the pipeline's own cost, no production
 * pacing), and measures on one zone of N names:
 *   seed (one batch of N posts → visible), full build (rebuild request → built), 10k-change batch
 *   → built, one-record change → visible through DoH (polled), DoH req/s from a second process
 *   (autocannon) for an existing name, an NXDOMAIN and a wildcard hit.
 * Run it once per tree and compare the JSON files; for DoH throughput alone, bench/tools/doh-ab.mjs
 * interleaves variants with the empty worker and is the sharper tool.
 * usage: node bench/layouts.mjs <root> <names> <out.json> [namesPerBucket] */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'

const ROOT = path.resolve(process.argv[2] ?? '.')
const N = Number(process.argv[3] ?? 100000)
const OUT = process.argv[4] ?? '/tmp/layouts.json'
const PER_BUCKET = process.argv[5] // target names per bucket (the builder's KV_NAMES_PER_BUCKET)
const require = createRequire(path.join(ROOT, 'package.json'))
const { convertV4MiniflareOptions, Miniflare, Log, LogLevel } = require('miniflare')
const { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } = require('wrangler')
const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler')
const AUTOCANNON = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  '../node_modules/.bin/autocannon'
)
const TOKEN = 'bench-token'

function bundle(config, outdir) {
  execFileSync(WRANGLER, ['deploy', '--dry-run', '--outdir', outdir, '-c', config], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
  return path.join(
    outdir,
    readdirSync(outdir).find((f) => f.endsWith('.js'))
  )
}
function workerOptions(name, config, scriptPath, extra = {}) {
  const { workerOptions: w } = unstable_getMiniflareWorkerOptions(path.join(ROOT, config))
  w.name = name
  delete w.assets
  delete w.modulesRules
  return { ...w, modules: true, scriptPath, modulesRoot: path.dirname(scriptPath), ...extra }
}

const dir = mkdtempSync(path.join(tmpdir(), 'edgedns-layouts-'))
const api = workerOptions(
  'edgedns-api',
  'wrangler.toml',
  bundle('wrangler.toml', path.join(dir, 'a')),
  {
    bindings: {
      MAX_BATCH_CHANGES: '1000000',
      DEV_API_TOKEN: TOKEN,
      KV_KEY_WRITE_INTERVAL_MS: '0',
      ...(PER_BUCKET ? { KV_NAMES_PER_BUCKET: PER_BUCKET } : {}),
    },
    serviceBindings: { DOH: 'edgedns-doh' },
  }
)
delete api.triggers
const doh = workerOptions(
  'edgedns-doh',
  'workers/doh/wrangler.jsonc',
  bundle('workers/doh/wrangler.jsonc', path.join(dir, 'd')),
  {
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0, proxy: false }],
  }
)
const mf = new Miniflare(
  convertV4MiniflareOptions({
    host: '127.0.0.1',
    port: 0,
    log: new Log(LogLevel.WARN),
    d1Persist: path.join(dir, 'd1'),
    kvPersist: path.join(dir, 'kv'),
    durableObjectsPersist: path.join(dir, 'do'),
    workers: [api, doh],
  })
)
const base = (await mf.ready).toString().replace(/\/$/, '')
const dohBase = (await mf.unsafeGetDirectURL('edgedns-doh')).toString().replace(/\/$/, '')
const db = await mf.getD1Database('DB', 'edgedns-api')
for (const f of readdirSync(path.join(ROOT, 'migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort())
  for (const stmt of unstable_splitSqlQuery(readFileSync(path.join(ROOT, 'migrations', f), 'utf8')))
    await db.prepare(stmt).run()

async function call(method, p, body) {
  const res = await fetch(`${base}/client/v4${p}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await res.json()
  if (!json.success) throw new Error(`${method} ${p}: ${JSON.stringify(json.errors).slice(0, 300)}`)
  return { result: json.result, seq: Number(res.headers.get('x-edgedns-change-seq')) }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function waitBuilt(zoneId, seq, pollMs = 20) {
  for (;;) {
    const { result } = await call('GET', `/zones/${zoneId}/propagation`)
    if (result.built_seq >= seq && !result.last_error) return result
    if (result.last_error) console.error('builder error', result.last_error)
    await sleep(pollMs)
  }
}
async function dohJson(name, type = 'A') {
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${dohBase}/dns-query?name=${encodeURIComponent(name)}&type=${type}`)
      return await r.json()
    } catch (e) {
      if (i > 20) throw e
      await sleep(250)
    }
  }
}
const rec = (i, prefix = 'n') => ({
  type: 'A',
  name: `${prefix}-${i}`,
  content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  ttl: 300,
})
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const out = { root: ROOT, names: N, perBucket: PER_BUCKET ?? null, at: new Date().toISOString() }
const log = (k, v) => {
  out[k] = v
  console.log(k, JSON.stringify(v))
  writeFileSync(OUT, JSON.stringify(out, null, 2))
}

const accounts = (await call('GET', '/accounts')).result
const zone = (
  await call('POST', '/zones', {
    name: `bench${Date.now() % 100000}.test`,
    account: { id: accounts[0].id },
  })
).result
await waitBuilt(zone.id, 1)

// 1. Seed: one batch of N posts per 50k chunk, time until built.
let t0 = performance.now()
let last
for (let s = 0; s < N; s += 50000) {
  const posts = []
  for (let i = s; i < Math.min(N, s + 50000); i++) posts.push(rec(i))
  last = await call('POST', `/zones/${zone.id}/dns_records/batch`, { posts })
}
const tCommitted = performance.now()
await waitBuilt(zone.id, last.seq, 200)
log('seed', {
  names: N,
  commitMs: Math.round(tCommitted - t0),
  visibleMs: Math.round(performance.now() - t0),
  buildAfterCommitMs: Math.round(performance.now() - tCommitted),
})
const wild = await call('POST', `/zones/${zone.id}/dns_records`, {
  type: 'A',
  name: '*.wild',
  content: '192.0.2.55',
  ttl: 300,
})
await waitBuilt(zone.id, wild.seq)

// 2. Full build on request.
t0 = performance.now()
const rb = await call('POST', `/zones/${zone.id}/propagation/rebuild`)
const built = await waitBuilt(zone.id, rb.result.seq ?? rb.seq, 100)
log('fullBuild', {
  names: N,
  ms: Math.round(performance.now() - t0),
  last_full_build: built.last_full_build,
})

// 3. A 10,000-change batch (new names) → built.
{
  const posts = Array.from({ length: 10000 }, (_, i) => rec(i, 'batch'))
  t0 = performance.now()
  const r = await call('POST', `/zones/${zone.id}/dns_records/batch`, { posts })
  const tc = performance.now()
  await waitBuilt(zone.id, r.seq, 5)
  const answer = await dohJson(`batch-9999.${zone.name}`)
  log('batch10k', {
    responseMs: Math.round(tc - t0),
    requestToVisibleMs: Math.round(performance.now() - t0),
    dohStatus: answer.Status,
  })
}

// 4. One-record change → visible through DoH (polled every ~1 ms).
{
  const lat = []
  for (let i = 0; i < 30; i++) {
    const name = `one-${i}.${zone.name}`
    const tq = performance.now()
    await call('POST', `/zones/${zone.id}/dns_records`, {
      type: 'A',
      name: `one-${i}`,
      content: '192.0.2.9',
      ttl: 300,
    })
    const tc = performance.now()
    for (;;) {
      const a = await dohJson(name)
      if (a.Status === 0 && a.Answer?.length) break
      await sleep(1)
    }
    lat.push(performance.now() - tc)
    void tq
  }
  log('oneRecordVisible', {
    samples: lat.length,
    p50Ms: +pct(lat, 50).toFixed(1),
    p99Ms: +pct(lat, 99).toFixed(1),
    maxMs: +Math.max(...lat).toFixed(1),
  })
}

// 5. DoH req/s at saturation from a second process.
const cases = {
  existing: `n-${Math.floor(N / 2)}.${zone.name}`,
  nxdomain: `nope-12345.${zone.name}`,
  wildcard: `abc.wild.${zone.name}`,
}
for (const [k, name] of Object.entries(cases)) {
  await sleep(1000)
  const check = await dohJson(name)
  const raw = execFileSync(
    AUTOCANNON,
    ['-j', '-c', '32', '-d', '8', `${dohBase}/dns-query?name=${name}&type=A`],
    { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] }
  )
  const r = JSON.parse(raw.toString())
  log(`doh_${k}`, {
    name,
    status: check.Status,
    answers: check.Answer?.length ?? 0,
    reqPerSec: Math.round(r.requests.average),
    p50LatencyMs: r.latency.p50,
    p99LatencyMs: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  })
}
await mf.dispose()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
