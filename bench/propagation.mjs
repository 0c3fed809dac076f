/**
 * @module Propagation benchmark: commit → visible through the DoH read path for one-record
 * changes on the small and the large zone, non-apex names and the apex apart, with builder pacing
 * off (the shared stack); the same changes 200 ms apart on a second, small stack with production
 * pacing (one write per KV key per second); a 10,000-change batch fully visible; and the full
 * build of each zone with its ratio to a per-record build (issue "Propagation").
 */
import { aRecord, apiClient } from './lib/api.mjs'
import { benchZones, createBenchZone, SMALL } from './lib/fixtures.mjs'
import { builderSettled, dohJson, pollDoh, waitBuilt, waitQuiet } from './lib/propagation.mjs'
import { BENCH_KV_KEY_WRITE_INTERVAL_MS, startBenchStack } from './lib/stack.mjs'
import { summarize } from './lib/stats.mjs'

const BULK = 10_000
/** The paced run: changes this far apart (start to start), builder pacing as in production. */
const PACED_INTERVAL_MS = 200
const PACED_KV_KEY_WRITE_INTERVAL_MS = 1000

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * The two kinds of one-record change. `non-apex`: create an A record at a fresh name (visible =
 * the address answers), delete it (visible = NXDOMAIN). `apex`: create a TXT record at '@' with a
 * unique content (visible = the apex TXT answer includes it), delete it (visible = it no longer
 * does). Every record is its own, so changes in flight at once do not mask each other.
 */
export function changeKind(kind, zone, tag, poll = {}) {
  const remove = async (api, rec) => api.call('DELETE', `/zones/${zone.id}/dns_records/${rec.id}`)
  if (kind === 'apex') {
    // The "-end" suffix keeps one content from being a substring of another (…-1-end vs …-11-end).
    const has = (rec) => (a) => a.data.some((d) => d.includes(rec.content))
    return {
      kind,
      remove,
      planned: (j) => ({ content: `bench-${tag}-${j}-end` }),
      async create(api, j) {
        const { content } = this.planned(j)
        const { result, headers } = await api.call('POST', `/zones/${zone.id}/dns_records`, {
          type: 'TXT',
          name: '@',
          content,
          ttl: 60,
        })
        return { id: result.id, content, headers }
      },
      visible: (dohUrl, rec, created) =>
        pollDoh(dohUrl, zone.name, created ? has(rec) : (a) => !has(rec)(a), {
          ...poll,
          type: 'TXT',
        }),
    }
  }
  return {
    kind,
    remove,
    planned: (j) => ({
      name: `p${tag}-${j}`,
      fqdn: `p${tag}-${j}.${zone.name}`,
      content: `192.0.2.${j % 250}`,
    }),
    async create(api, j) {
      const { name, fqdn, content } = this.planned(j)
      const { result, headers } = await api.call('POST', `/zones/${zone.id}/dns_records`, {
        type: 'A',
        name,
        content,
        ttl: 60,
      })
      return { id: result.id, fqdn, content, headers }
    },
    visible: (dohUrl, rec, created) =>
      pollDoh(
        dohUrl,
        rec.fqdn,
        created ? (a) => a.data.includes(rec.content) : (a) => a.status === 3,
        poll
      ),
  }
}

/** A write's commit instant (performance.now() scale); a write without one is a bench error. */
function committedAt(api, headers) {
  const t = api.committedAt(headers)
  if (!Number.isFinite(t)) throw new Error('write response without x-edgedns-committed-at')
  return t
}

const summarizeSeries = (series) =>
  Object.fromEntries(Object.entries(series).map(([k, v]) => [k, summarize(v)]))

/**
 * Pacing off: alternating creates and deletes, each change once the previous one is visible and
 * its builder's step has ended (the head's slot written, the bucket flushed), so each change is
 * measured on a quiet builder; changes that arrive while earlier ones are still being built are
 * the paced run's.
 */
async function oneRecordChanges({ api, stack, log }, zone, kind, samples, warmup) {
  const builder = await stack.builder(zone.id)
  const change = changeKind(kind, zone, Date.now().toString(36))
  const series = { commit: [], ack: [], submit: [], server: [], pass: [] }
  let rec = null
  let measuredFrom = Infinity
  for (let k = 0; k < warmup + samples; k++) {
    if (k === warmup) measuredFrom = Date.now()
    const create = k % 2 === 0
    // DNS clients do not wait for the API's response: the poller runs from the submit on.
    const seenP = change.visible(stack.dohUrl, create ? change.planned(k >> 1) : rec, create)
    const t0 = performance.now()
    const res = create ? await change.create(api, k >> 1) : await change.remove(api, rec)
    // The commit instant is the API's clock when D1 acknowledged the commit: in workerd local the
    // response itself can trail it while the builder shares the runtime's thread.
    const tCommit = committedAt(api, res.headers)
    const tAck = performance.now()
    if (create) rec = res
    const seen = await seenP
    await builderSettled(builder)
    if (k < warmup) continue
    series.commit.push(seen.atMs - tCommit)
    series.ack.push(seen.atMs - tAck)
    series.submit.push(seen.atMs - t0)
    series.server.push(api.serverMs(res.headers))
  }
  // The builder's own time per pass (commit to announced head), read once after the series.
  for (const p of (await builder.status()).recentPasses)
    if (p.kind === 'per-record' && p.at >= measuredFrom) series.pass.push(p.ms)
  const r = summarizeSeries(series)
  log(
    `propagation: ${zone.name} one-record ${kind} change visible ${r.commit.median.toFixed(1)} ms p50 / ${r.commit.p99.toFixed(1)} ms p99 after the commit, ${r.ack.median.toFixed(1)} / ${r.ack.p99.toFixed(1)} ms after the response (per-record pass ${r.pass.median} ms)`
  )
  return r
}

/**
 * Paced: a change starts every `intervalMs` whether or not the previous ones are visible yet (each
 * has its own poller). Even changes create; odd ones delete the oldest record whose create was
 * already seen (a create when there is none), so no change waits on another. `poll`: the pollers'
 * options (pollDoh); with `censorAfterMs`, a change not visible that long after its submit counts
 * as that long (and in `censored`) instead of failing the run.
 */
export async function pacedChanges(
  { api, stack, log },
  zone,
  kind,
  samples,
  warmup,
  intervalMs,
  { poll = {}, censorAfterMs } = {}
) {
  const pollOptions = censorAfterMs ? { ...poll, timeoutMs: censorAfterMs } : poll
  const change = changeKind(kind, zone, Date.now().toString(36), pollOptions)
  let censored = 0
  const series = { commit: [], ack: [], submit: [], server: [] }
  const live = []
  const jobs = []
  let failure = null
  let created = 0
  let creates = 0
  let maxLateMs = 0
  const start = performance.now()
  for (let k = 0; k < warmup + samples && !failure; k++) {
    const due = start + k * intervalMs
    if (due > performance.now()) await sleep(due - performance.now())
    maxLateMs = Math.max(maxLateMs, performance.now() - due)
    const create = k % 2 === 0 || live.length === 0
    if (create && k >= warmup) creates++
    const rec = create ? null : live.shift()
    const j = create ? created++ : null
    const job = (async () => {
      const t0 = performance.now()
      const seenP = change
        .visible(stack.dohUrl, create ? change.planned(j) : rec, create)
        .catch((e) => {
          if (!censorAfterMs) throw e
          return { atMs: t0 + censorAfterMs, censored: true }
        })
      const res = create ? await change.create(api, j) : await change.remove(api, rec)
      const tCommit = committedAt(api, res.headers)
      const tAck = performance.now()
      const target = create ? res : rec
      const seen = await seenP
      if (seen.censored && k >= warmup) censored++
      // A create never seen stays out of the delete queue (its delete could not be judged).
      if (create && !seen.censored) live.push(target)
      if (k < warmup) return
      series.commit.push(seen.atMs - tCommit)
      series.ack.push(seen.atMs - tAck)
      series.submit.push(seen.atMs - t0)
      series.server.push(api.serverMs(res.headers))
    })().catch((e) => {
      failure ??= e
    })
    jobs.push(job)
  }
  await Promise.all(jobs)
  if (failure) throw failure
  for (const rec of live.splice(0)) await change.remove(api, rec)
  const r = { ...summarizeSeries(series), intervalMs, creates, maxLateMs, censored }
  log(
    `propagation: ${zone.name} ${kind} changes ${intervalMs} ms apart visible ${r.commit.median.toFixed(1)} ms p50 / ${r.commit.p99.toFixed(1)} ms p99 after the commit, ${r.ack.median.toFixed(1)} / ${r.ack.p99.toFixed(1)} ms after the response (schedule at most ${maxLateMs.toFixed(0)} ms late)`
  )
  return r
}

/** A second, small stack with production pacing: one-record changes 200 ms apart, apex and not. */
async function pacedRun({ log, quick }) {
  log(
    `propagation: starting a second stack with KV_KEY_WRITE_INTERVAL_MS=${PACED_KV_KEY_WRITE_INTERVAL_MS} for the paced run…`
  )
  const stack = await startBenchStack({
    apiBindings: { KV_KEY_WRITE_INTERVAL_MS: String(PACED_KV_KEY_WRITE_INTERVAL_MS) },
  })
  try {
    const ctx = { api: apiClient(stack.url, stack.token), stack, log }
    const zone = await createBenchZone(ctx, 'paced.bench.example', SMALL)
    const samples = quick ? 30 : 150
    const out = {
      kvKeyWriteIntervalMs: PACED_KV_KEY_WRITE_INTERVAL_MS,
      intervalMs: PACED_INTERVAL_MS,
      name: zone.name,
      size: zone.size,
    }
    out.one = await pacedChanges(ctx, zone, 'non-apex', samples, 6, PACED_INTERVAL_MS)
    out.apex = await pacedChanges(ctx, zone, 'apex', samples, 6, PACED_INTERVAL_MS)
    return out
  } finally {
    await stack.close()
  }
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
    const tCommit = res.committedAt
    if (!Number.isFinite(tCommit)) throw new Error('batch response without a commit instant')
    const tResponse = performance.now()
    await waitBuilt(api, zone.id, { seq: res.seq, everyMs: 5 })
    const tBuilt = performance.now()
    // The builder says it is done: every name must answer now (first, last and a spread between).
    const probes = [
      0,
      BULK - 1,
      ...Array.from({ length: 18 }, (_, i) => Math.floor(((i + 1) * BULK) / 19)),
    ]
    for (const i of probes) {
      const a = await dohJson(stack.dohUrl, `${prefix}-${i}.${zone.name}`)
      if (!a.data.includes(posts[i].content))
        throw new Error(`${prefix}-${i} not visible although built (${JSON.stringify(a)})`)
    }
    commit.push(tBuilt - tCommit)
    submit.push(tBuilt - t0)
    server.push(res.serverMs)
    response.push(tResponse - t0)
    await api.batch(zone.id, { deletes: res.result.posts.map((p) => ({ id: p.id })) })
    await waitBuilt(api, zone.id, { everyMs: 20 })
  }
  const out = {
    n: BULK,
    commit: summarize(commit),
    submit: summarize(submit),
    server: summarize(server),
    response: summarize(response),
  }
  log(
    `propagation: ${zone.name} ${BULK.toLocaleString('en-US')}-change batch fully visible ${out.commit.median.toFixed(0)} ms after commit (${out.submit.median.toFixed(0)} ms after submit)`
  )
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
    runs.push({
      wallMs,
      ms: s.lastFullBuild?.ms ?? NaN,
      keysWritten: s.lastFullBuild?.keysWritten ?? NaN,
      keysDeleted: s.lastFullBuild?.keysDeleted ?? NaN,
      phaseMs: s.lastFullBuild?.phaseMs ?? null,
    })
  }
  const out = {
    wall: summarize(runs.map((x) => x.wallMs)),
    builder: summarize(runs.map((x) => x.ms)),
    keysWritten: runs[0].keysWritten,
    /** Builder time per phase of the first run: D1 → mirror, mirror → buckets + meta, prune. */
    phaseMs: runs[0].phaseMs,
    keysPerSecond: runs[0].keysWritten / (summarize(runs.map((x) => x.ms)).median / 1000),
  }
  const phases = out.phaseMs
    ? `; D1 → mirror ${(out.phaseMs.write / 1000).toFixed(1)} s, buckets ${(out.phaseMs.buckets / 1000).toFixed(1)} s, prune ${(out.phaseMs.prune / 1000).toFixed(1)} s`
    : ''
  log(
    `propagation: ${zone.name} full build ${(out.builder.median / 1000).toFixed(1)} s (${out.keysWritten.toLocaleString('en-US')} keys, ${Math.round(out.keysPerSecond)} keys/s${phases})`
  )
  return out
}

export async function runPropagationBench(ctx) {
  const { quick } = ctx
  const zones = await benchZones(ctx)
  const samples = quick ? 30 : 150
  const out = { kvKeyWriteIntervalMs: Number(BENCH_KV_KEY_WRITE_INTERVAL_MS), zones: {} }
  for (const kind of ['small', 'large']) {
    const zone = zones[kind]
    out.zones[kind] = {
      name: zone.name,
      size: zone.size,
      seedMs: zone.seedMs,
      seedBuildMs: zone.buildMs,
    }
    // Each series starts with no builder work left over (the previous series' last bucket).
    await waitQuiet(ctx.stack, zones, ctx.log)
    out.zones[kind].one = await oneRecordChanges(ctx, zone, 'non-apex', samples, 6)
    out.zones[kind].apex = await oneRecordChanges(ctx, zone, 'apex', samples, 6)
  }
  // Quick runs time the 10,000-change batch on the large zone only, once.
  for (const kind of quick ? ['large'] : ['small', 'large'])
    // Three runs, so the median is the middle one (of two it would be the slower).
    out.zones[kind].bulk = await bulkVisible(ctx, zones[kind], quick ? 1 : 3)
  for (const kind of ['small', 'large'])
    out.zones[kind].full = await fullBuilds(ctx, zones[kind], kind === 'small' ? 3 : 1)
  out.paced = await pacedRun(ctx)
  return out
}
