/**
 * @module Memory of the whole runtime: the resident set of the workerd process (/proc VmRSS), an
 * upper bound on each isolate (the API isolate's own heap: isolate.mjs, through the inspector). API: the stack's process
 * (API + DoH + empty workers, D1/KV/DO simulators) during a large batch and the build after it.
 * DoH: a runtime serving only the DoH worker (from a copy of the run's KV) under saturating load.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { aRecord } from './lib/api.mjs'
import { loadPlan, wirePaths } from './lib/dohload.mjs'
import { benchZones } from './lib/fixtures.mjs'
import { runLoad } from './lib/load.mjs'
import { rssOf, sampleRss, workerdPids } from './lib/procs.mjs'
import { waitBuilt } from './lib/propagation.mjs'
import { snapshotKv } from './lib/snapshot.mjs'
import { startDohOnly } from './lib/stack.mjs'

const MB = 2 ** 20
const inMb = (x) => ({ before: x.before / MB, peak: x.peak / MB, after: x.after / MB })

function onlyPid(before = new Set()) {
  const pids = workerdPids().filter((p) => !before.has(p))
  if (pids.length !== 1) throw new Error(`expected one new workerd process, found ${pids.length}`)
  return pids[0]
}

async function apiDuringBatch({ api, log }, pid, n) {
  const zone = await api.createZone(`memory-${Date.now().toString(36)}.bench.example`)
  await waitBuilt(api, zone.id)
  const posts = Array.from({ length: n }, (_, i) => aRecord('mem', i))
  const batch = sampleRss(pid)
  const res = await api.batch(zone.id, { posts })
  const during = batch.stop()
  const build = sampleRss(pid)
  await waitBuilt(api, zone.id, { seq: res.seq, everyMs: 50, timeoutMs: 3_600_000 })
  const afterBuild = build.stop()
  log(
    `memory: workerd RSS ${Math.round(during.before / MB)} MB before a ${n.toLocaleString('en-US')}-change batch, peak ${Math.round(during.peak / MB)} MB during it, ${Math.round(afterBuild.peak / MB)} MB peak while building`
  )
  return { n, batchServerMs: res.serverMs, batch: inMb(during), build: inMb(afterBuild) }
}

async function dohUnderLoad({ stack, quick, log }, zones) {
  const snap = mkdtempSync(path.join(tmpdir(), 'edgedns-snap-'))
  try {
    snapshotKv(stack.stateDir, snap)
    const known = new Set(workerdPids())
    const { mf, dohUrl } = await startDohOnly({ dohScript: stack.dohScript, stateDir: snap })
    try {
      const pid = onlyPid(known)
      const idle = rssOf(pid)
      const z = zones.large
      const s = sampleRss(pid)
      const load = await runLoad({
        url: dohUrl,
        paths: wirePaths(z.name, z.size, 'existing'),
        connections: 32,
        duration: loadPlan(quick).duration * 2,
      })
      const r = s.stop()
      log(
        `memory: DoH-only workerd RSS ${Math.round(idle / MB)} MB idle, peak ${Math.round(r.peak / MB)} MB at ${Math.round(load.rps)} q/s`
      )
      return { zone: 'large', size: z.size, rps: load.rps, ...inMb(r) }
    } finally {
      await mf.dispose()
    }
  } finally {
    rmSync(snap, { recursive: true, force: true })
  }
}

export async function runMemoryBench(ctx) {
  const zones = await benchZones(ctx)
  const pid = onlyPid()
  const doh = await dohUnderLoad(ctx, zones)
  const api = await apiDuringBatch(ctx, pid, ctx.quick ? 10_000 : 100_000)
  return { api, doh }
}
