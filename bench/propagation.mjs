/**
 * @module Propagation benchmark: commit → visible through the DoH read path for one-record
 * changes on the small and the large zone, a 10,000-change batch fully visible, and the full
 * build of each zone with its ratio to a per-record build (issue "Propagation").
 */
import { aRecord } from './lib/api.mjs'
import { benchZones } from './lib/fixtures.mjs'
import { dohJson, pollDoh, waitBuilt } from './lib/propagation.mjs'
import { BENCH_KV_KEY_WRITE_INTERVAL_MS } from './lib/stack.mjs'
import { summarize } from './lib/stats.mjs'

const BULK = 10_000

/** Alternating creates (visible = the address answers) and deletes (visible = NXDOMAIN). */
async function oneRecordChanges({ api, stack, log }, zone, samples, warmup) {
  const builder = await stack.builder(zone.id)
  const tag = Date.now().toString(36)
  const commit = []
  const ack = []
  const submit = []
  const server = []
  const pass = []
  let ids = []
  for (let k = 0; k < warmup + samples; k++) {
    const name = `p${tag}-${k >> 1}`
    const fqdn = `${name}.${zone.name}`
    const create = k % 2 === 0
    const content = `192.0.2.${(k >> 1) % 250}`
    const t0 = performance.now()
    const { result, headers } = create
      ? await api.call('POST', `/zones/${zone.id}/dns_records`, { type: 'A', name, content, ttl: 60 })
      : await api.call('DELETE', `/zones/${zone.id}/dns_records/${ids.pop()}`)
    // The commit instant is the end of the server's handler (its Server-Timing total): in workerd
    // local the response itself can trail it while the builder shares the runtime's thread.
    const tCommit = t0 + api.serverMs(headers)
    const tAck = performance.now()
    if (create) ids.push(result.id)
    const seen = await pollDoh(stack.dohUrl, fqdn, create ? (a) => a.data.includes(content) : (a) => a.status === 3)
    if (k < warmup) continue
    commit.push(seen.atMs - tCommit)
    ack.push(seen.atMs - tAck)
    submit.push(seen.atMs - t0)
    server.push(api.serverMs(headers))
    const s = await builder.status()
    if (s.lastPass?.kind === 'per-record') pass.push(s.lastPass.ms)
  }
  const r = { commit: summarize(commit), ack: summarize(ack), submit: summarize(submit), server: summarize(server), pass: summarize(pass) }
  log(`propagation: ${zone.name} one-record change visible ${r.commit.median.toFixed(1)} ms p50 / ${r.commit.p99.toFixed(1)} ms p99 after the handler's end, ${r.ack.median.toFixed(1)} / ${r.ack.p99.toFixed(1)} ms after the response (per-record pass ${r.pass.median} ms)`)
  return r
}

/** A 10,000-change batch (creates): commit → builder caught up, then checked through DoH. */
async function bulkVisible({ api, stack, log }, zone, reps) {
  const commit = []
  const submit = []
  const server = []
  const response = []
  for (let r = 0; r < reps; r++) {
    const prefix = `bulk${Date.now().toString(36)}${r}`
    const posts = Array.from({ length: BULK }, (_, i) => aRecord(prefix, i))
    const t0 = performance.now()
    const res = await api.batch(zone.id, { posts })
    const tCommit = t0 + res.serverMs
    const tResponse = performance.now()
    await waitBuilt(api, zone.id, { seq: res.seq, everyMs: 5 })
    const tBuilt = performance.now()
    // The builder says it is done: every name must answer now (first, last and a spread between).
    const probes = [0, BULK - 1, ...Array.from({ length: 18 }, (_, i) => Math.floor(((i + 1) * BULK) / 19))]
    for (const i of probes) {
      const a = await dohJson(stack.dohUrl, `${prefix}-${i}.${zone.name}`)
      if (!a.data.includes(posts[i].content)) throw new Error(`${prefix}-${i} not visible although built (${JSON.stringify(a)})`)
    }
    commit.push(tBuilt - tCommit)
    submit.push(tBuilt - t0)
    server.push(res.serverMs)
    response.push(tResponse - t0)
    await api.batch(zone.id, { deletes: res.result.posts.map((p) => ({ id: p.id })) })
    await waitBuilt(api, zone.id, { everyMs: 20 })
  }
  const out = { n: BULK, commit: summarize(commit), submit: summarize(submit), server: summarize(server), response: summarize(response) }
  log(`propagation: ${zone.name} ${BULK.toLocaleString('en-US')}-change batch fully visible ${out.commit.median.toFixed(0)} ms after commit (${out.submit.median.toFixed(0)} ms after submit)`)
  return out
}

/** Full builds through POST …/propagation/rebuild; the DO's own timing and the wall clock. */
async function fullBuilds({ api, stack, log }, zone, reps) {
  const builder = await stack.builder(zone.id)
  const runs = []
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now()
    const { result } = await api.call('POST', `/zones/${zone.id}/propagation/rebuild`, {})
    await waitBuilt(api, zone.id, { seq: result.seq, everyMs: 50, timeoutMs: 3_600_000 })
    const wallMs = performance.now() - t0
    const s = await builder.status()
    runs.push({ wallMs, ms: s.lastFullBuild?.ms ?? NaN, keysWritten: s.lastFullBuild?.keysWritten ?? NaN, keysDeleted: s.lastFullBuild?.keysDeleted ?? NaN, phaseMs: s.lastFullBuild?.phaseMs ?? null })
  }
  const out = {
    wall: summarize(runs.map((x) => x.wallMs)),
    builder: summarize(runs.map((x) => x.ms)),
    keysWritten: runs[0].keysWritten,
    /** Builder time per phase of the first run: D1 → mirror, mirror → buckets + meta, sweep. */
    phaseMs: runs[0].phaseMs,
    keysPerSecond: runs[0].keysWritten / (summarize(runs.map((x) => x.ms)).median / 1000),
  }
  const phases = out.phaseMs ? `; D1 → mirror ${(out.phaseMs.write / 1000).toFixed(1)} s, buckets ${(out.phaseMs.buckets / 1000).toFixed(1)} s, sweep ${(out.phaseMs.sweep / 1000).toFixed(1)} s` : ''
  log(`propagation: ${zone.name} full build ${(out.builder.median / 1000).toFixed(1)} s (${out.keysWritten.toLocaleString('en-US')} keys, ${Math.round(out.keysPerSecond)} keys/s${phases})`)
  return out
}

export async function runPropagationBench(ctx) {
  const { quick } = ctx
  const zones = await benchZones(ctx)
  const samples = quick ? 30 : 150
  const out = { kvKeyWriteIntervalMs: Number(BENCH_KV_KEY_WRITE_INTERVAL_MS), zones: {} }
  for (const kind of ['small', 'large']) {
    const zone = zones[kind]
    out.zones[kind] = { name: zone.name, size: zone.size, seedMs: zone.seedMs, seedBuildMs: zone.buildMs }
    out.zones[kind].one = await oneRecordChanges(ctx, zone, samples, 6)
  }
  // Quick runs time the 10,000-change batch on the large zone only, once.
  for (const kind of quick ? ['large'] : ['small', 'large']) out.zones[kind].bulk = await bulkVisible(ctx, zones[kind], quick ? 1 : 2)
  for (const kind of ['small', 'large']) out.zones[kind].full = await fullBuilds(ctx, zones[kind], kind === 'small' ? 3 : 1)
  return out
}
