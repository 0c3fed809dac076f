/**
 * @module Commit → visible under the production KV model (issue "Freshness at platform scale"): a
 * stack of its own whose workers read KV through `KV_MODEL=production` (strict bindings: each DoH
 * isolate, and each API env, is one KV location with its own edge cache keeping a value or a miss
 * for the read's `cacheTtl`), with the deployed settings: no read-path override (`REVALIDATE_MS`,
 * `REFRESH_AHEAD_MS`, `BUCKET_MAX_AGE_MS` at their deployed defaults) and the builder's production
 * pacing (one write per KV key per second).
 *
 * On a 1,000-record zone, after the DoH isolate has answered its names for a while (a warm
 * location): one-record changes 200 ms apart, non-apex and apex apart (as the paced propagation
 * run), then a 10,000-change batch, visible when every probed name (first, last and 18 between)
 * answers. The pollers ask every 50 ms; a change not visible within `CENSOR_MS` counts as that
 * long (and is counted as censored) instead of failing the run.
 */
import { aRecord } from './lib/api.mjs'
import { createBenchZone, queryNames, SMALL } from './lib/fixtures.mjs'
import { dohStats, statsDelta, warmUp, wirePaths } from './lib/dohload.mjs'
import { dohJson } from './lib/propagation.mjs'
import { summarize } from './lib/stats.mjs'
import { pacedChanges } from './propagation.mjs'

const INTERVAL_MS = 200
const POLL_EVERY_MS = 50
/** A change not visible this long after its submit is counted at this value (censored). */
const CENSOR_MS = 20_000
const BULK = 10_000
const BULK_TIMEOUT_MS = 30_000
const PACED_KV_KEY_WRITE_INTERVAL_MS = '1000'

/** The section's stack: production KV model, deployed read settings, production pacing. */
export const productionModelStack = () => ({
  readSettings: 'deployed',
  apiBindings: { KV_MODEL: 'production', KV_KEY_WRITE_INTERVAL_MS: PACED_KV_KEY_WRITE_INTERVAL_MS },
  dohBindings: { KV_MODEL: 'production' },
})

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** A 10,000-create batch: commit → every probed name answers through DoH. */
async function batchVisible({ api, stack, log }, zone) {
  const prefix = `bulk${Date.now().toString(36)}`
  const posts = Array.from({ length: BULK }, (_, i) => aRecord(prefix, i))
  const probes = [
    0,
    BULK - 1,
    ...Array.from({ length: 18 }, (_, i) => Math.floor(((i + 1) * BULK) / 19)),
  ]
  const res = await api.batch(zone.id, { posts })
  const tCommit = res.committedAt
  if (!Number.isFinite(tCommit)) throw new Error('batch response without a commit instant')
  const pending = new Set(probes)
  for (;;) {
    for (const i of [...pending]) {
      const a = await dohJson(stack.dohUrl, `${prefix}-${i}.${zone.name}`)
      if (a.data.includes(posts[i].content)) pending.delete(i)
    }
    const ms = performance.now() - tCommit
    if (pending.size === 0) {
      log(`production model: ${BULK}-change batch fully visible ${ms.toFixed(0)} ms after commit`)
      return { n: BULK, commitMs: ms, visible: true }
    }
    if (ms > BULK_TIMEOUT_MS) {
      log(
        `production model: ${BULK}-change batch: ${pending.size} of ${probes.length} probed names still not visible ${ms.toFixed(0)} ms after commit`
      )
      return { n: BULK, commitMs: ms, visible: false, pending: pending.size }
    }
    await sleep(POLL_EVERY_MS)
  }
}

export async function runProductionModelBench(ctx) {
  const { stack, quick, log } = ctx
  const zone = await createBenchZone(ctx, 'model.bench.example', SMALL)
  // A warm location: the isolate holds the zone, its edge cache the keys its reads touched.
  const paths = wirePaths(zone.name, zone.size, 'existing')
  await warmUp({ url: stack.dohUrl, paths, duration: 3 })
  const first = queryNames(zone.name, zone.size, 'existing', 1)[0]
  if ((await dohJson(stack.dohUrl, first)).status !== 0)
    throw new Error(`${first} does not answer under the production model`)
  const samples = quick ? 10 : 40
  const options = { poll: { everyMs: POLL_EVERY_MS }, censorAfterMs: CENSOR_MS }
  const out = {
    intervalMs: INTERVAL_MS,
    kvKeyWriteIntervalMs: Number(PACED_KV_KEY_WRITE_INTERVAL_MS),
    censorMs: CENSOR_MS,
    pollEveryMs: POLL_EVERY_MS,
    size: zone.size,
  }
  // The DoH worker's counters around each series: the reads the changes (and their pollers) cost.
  for (const [key, kind] of [
    ['one', 'non-apex'],
    ['apex', 'apex'],
  ]) {
    const before = await dohStats(stack.dohUrl)
    const t0 = performance.now()
    out[key] = await pacedChanges(ctx, zone, kind, samples, 2, INTERVAL_MS, options)
    const after = await dohStats(stack.dohUrl)
    out[key].kv = statsDelta(before, after, (performance.now() - t0) / 1000)
    out[key].kv.feedCalls =
      after.feedCalls === undefined ? null : after.feedCalls - (before.feedCalls ?? 0)
  }
  for (const [key, label] of [
    ['one', 'non-apex'],
    ['apex', 'apex'],
  ])
    log(
      `production model: ${label} changes ${INTERVAL_MS} ms apart visible p50 ${(out[key].commit.median / 1000).toFixed(2)} s / p99 ${(out[key].commit.p99 / 1000).toFixed(2)} s after the commit (${out[key].censored} of ${out[key].commit.n} not visible within ${CENSOR_MS / 1000} s)`
    )
  out.bulk = await batchVisible(ctx, zone)
  out.bulk.commit = summarize([out.bulk.commitMs])
  return out
}
