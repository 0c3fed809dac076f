/**
 * @module Start-to-first-answer: time from starting a fresh runtime process (a new Miniflare,
 * hence a new workerd, serving the DoH worker from persisted KV) to the first correct DoH answer,
 * for a store holding only the 1,000-record zone and for the run's store with the large zone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { apiClient } from './lib/api.mjs'
import { parseHeader, wirePath } from './lib/dnswire.mjs'
import { benchZones, SMALL, zoneName, zoneRecords } from './lib/fixtures.mjs'
import { waitBuilt } from './lib/propagation.mjs'
import { kvValueCount, snapshotKv } from './lib/snapshot.mjs'
import { startBenchStack, startDohOnly } from './lib/stack.mjs'
import { summarize } from './lib/stats.mjs'

/** Starts a DoH-only runtime on `stateDir` and polls `name` until it answers NOERROR with data. */
export async function timeFirstAnswer({ dohScript, stateDir, name }) {
  const t0 = performance.now()
  const { mf, dohUrl } = await startDohOnly({ dohScript, stateDir })
  const readyMs = performance.now() - t0
  try {
    for (;;) {
      try {
        const res = await fetch(dohUrl + wirePath(name))
        const h = parseHeader(Buffer.from(await res.arrayBuffer()))
        if (h.rcode === 'NOERROR' && h.an > 0) return { readyMs, answerMs: performance.now() - t0 }
      } catch {}
      if (performance.now() - t0 > 60_000) throw new Error(`no answer for ${name} within 60 s`)
    }
  } finally {
    await mf.dispose()
  }
}

async function measureStore({ dohScript, stateDir, name, reps }) {
  const runs = []
  for (let r = 0; r < reps; r++) runs.push(await timeFirstAnswer({ dohScript, stateDir, name }))
  return {
    ready: summarize(runs.map((x) => x.readyMs)),
    answer: summarize(runs.map((x) => x.answerMs)),
    kvValues: kvValueCount(stateDir),
  }
}

/** A store with nothing but the 1,000-record zone, built by a stack of its own. */
async function smallStore(log) {
  const stack = await startBenchStack({ keep: true })
  try {
    const api = apiClient(stack.url, stack.token)
    const zone = await api.createZone(zoneName('small'))
    await api.batch(zone.id, { posts: [...zoneRecords(SMALL)] })
    await waitBuilt(api, zone.id)
    log(`startup: built a store holding only ${zone.name}`)
  } finally {
    await stack.close()
  }
  return stack.dir
}

export async function runStartupBench(ctx) {
  const { stack, quick, log } = ctx
  const zones = await benchZones(ctx)
  const reps = quick ? 3 : 5
  const out = {}
  const smallDir = await smallStore(log)
  try {
    out.small = {
      size: SMALL,
      ...(await measureStore({
        dohScript: stack.dohScript,
        stateDir: path.join(smallDir, 'state'),
        name: `base-7.${zones.small.name}`,
        reps,
      })),
    }
  } finally {
    rmSync(smallDir, { recursive: true, force: true })
  }
  log(
    `startup: 1,000-record store: first answer ${out.small.answer.median.toFixed(0)} ms after process start`
  )
  const snap = mkdtempSync(path.join(tmpdir(), 'edgedns-snap-'))
  try {
    snapshotKv(stack.stateDir, snap)
    const name = `base-${zones.large.size - 3}.${zones.large.name}`
    out.large = {
      size: zones.large.size,
      ...(await measureStore({ dohScript: stack.dohScript, stateDir: snap, name, reps })),
    }
  } finally {
    rmSync(snap, { recursive: true, force: true })
  }
  log(
    `startup: store with ${out.large.kvValues.toLocaleString('en-US')} KV values: first answer ${out.large.answer.median.toFixed(0)} ms after process start`
  )
  return out
}
