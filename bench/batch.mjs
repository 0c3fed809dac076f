/**
 * @module Batch benchmark: creates, deletes and a mixed create/update/delete workload at several batch
 * sizes, each against the same work done as one API call per record, on a zone that already holds
 * a large number of records (the three tables of Cloudflare's batch post).
 */
import { aRecord, seedZone } from './lib/api.mjs'
import { waitBuilt } from './lib/propagation.mjs'
import { summarize } from './lib/stats.mjs'

/** How many single-record calls are really made before the rest is extrapolated from their median. */
const SINGLE_CALL_SAMPLE = 1000

/**
 * The builder Durable Object runs on workerd's one thread with the API here (in production it runs
 * elsewhere), so every measured request first waits until the previous change is built: its time
 * is the API's own, not the API's plus a build competing for the thread.
 */
const settled = (api, zoneId) => waitBuilt(api, zoneId, { everyMs: 2 })

async function timeSingles(api, zoneId, ops) {
  const wall = []
  const server = []
  for (const op of ops) {
    await settled(api, zoneId)
    const t0 = performance.now()
    const { headers } = await api.call(op.method, `/zones/${zoneId}/dns_records${op.path}`, op.body)
    wall.push(performance.now() - t0)
    server.push(api.serverMs(headers))
  }
  return { wall, server }
}

function perRecordEstimate(times, n) {
  const sum = (xs) => xs.reduce((a, b) => a + b, 0)
  const measured = times.wall.length
  if (measured >= n)
    return { wallMs: sum(times.wall), serverMs: sum(times.server), extrapolated: false }
  const w = summarize(times.wall).median
  const s = summarize(times.server).median
  return { wallMs: w * n, serverMs: s * n, extrapolated: true }
}

export async function runBatchBench({ api, quick, log }) {
  const baseSize = quick ? 10_000 : 100_000
  const sizes = quick ? [10, 100, 1000] : [10, 100, 1000, 10_000, 100_000]
  const reps = (n) => (n >= 100_000 ? 3 : quick ? 3 : 5)
  const zone = await api.createZone(`bench-batch-${Date.now().toString(36)}.example`)
  log(`batch: seeding ${baseSize.toLocaleString('en-US')} records`)
  await seedZone(api, zone.id, baseSize, 'base', 50_000, (n) =>
    log(`batch: seeded ${n.toLocaleString('en-US')}`)
  )
  let gen = 0
  const fresh = (n) => {
    const g = gen++
    return Array.from({ length: n }, (_, i) => aRecord(`g${g}`, i))
  }
  const rows = []
  for (const n of sizes) {
    const res = {
      n,
      create: { wall: [], server: [] },
      delete: { wall: [], server: [] },
      mixed: { wall: [], server: [] },
    }
    for (let r = 0; r < reps(n); r++) {
      await settled(api, zone.id)
      const c = await api.batch(zone.id, { posts: fresh(n) })
      res.create.wall.push(c.wallMs)
      res.create.server.push(c.serverMs)
      const ids = c.result.posts.map((x) => x.id)
      await settled(api, zone.id)
      const d = await api.batch(zone.id, { deletes: ids.map((id) => ({ id })) })
      res.delete.wall.push(d.wallMs)
      res.delete.server.push(d.serverMs)
      // Mixed: a third deletes, a third updates, a third creates, against records that exist.
      const setup = await api.batch(zone.id, { posts: fresh(n) })
      const sid = setup.result.posts.map((x) => x.id)
      const third = Math.floor(n / 3)
      await settled(api, zone.id)
      const m = await api.batch(zone.id, {
        deletes: sid.slice(0, third).map((id) => ({ id })),
        patches: sid
          .slice(third, 2 * third)
          .map((id, i) => ({ id, content: `172.16.${(i >> 8) & 255}.${i & 255}` })),
        posts: fresh(n - 2 * third),
      })
      res.mixed.wall.push(m.wallMs)
      res.mixed.server.push(m.serverMs)
      const leftover = [...sid.slice(third), ...m.result.posts.map((x) => x.id)]
      await api.batch(zone.id, { deletes: leftover.map((id) => ({ id })) })
    }
    // The same work, one API call per record (measured up to SINGLE_CALL_SAMPLE calls, then extrapolated).
    const k = Math.min(n, quick ? 100 : SINGLE_CALL_SAMPLE)
    const recs = fresh(k)
    const createOps = recs.map((rec) => ({ method: 'POST', path: '', body: rec }))
    const created = []
    const ct = { wall: [], server: [] }
    for (const op of createOps) {
      await settled(api, zone.id)
      const t0 = performance.now()
      const { result, headers } = await api.call(
        op.method,
        `/zones/${zone.id}/dns_records`,
        op.body
      )
      ct.wall.push(performance.now() - t0)
      ct.server.push(api.serverMs(headers))
      created.push(result.id)
    }
    const dt = await timeSingles(
      api,
      zone.id,
      created.map((id) => ({ method: 'DELETE', path: `/${id}` }))
    )
    const mixedSetup = await api.batch(zone.id, { posts: fresh(k) })
    const mids = mixedSetup.result.posts.map((x) => x.id)
    const third = Math.floor(k / 3)
    const mixedOps = [
      ...mids.slice(0, third).map((id) => ({ method: 'DELETE', path: `/${id}` })),
      ...mids.slice(third, 2 * third).map((id, i) => ({
        method: 'PATCH',
        path: `/${id}`,
        body: { content: `172.17.${(i >> 8) & 255}.${i & 255}` },
      })),
      ...fresh(k - 2 * third).map((rec) => ({ method: 'POST', path: '', body: rec })),
    ]
    const mt = await timeSingles(api, zone.id, mixedOps)
    await api.batch(zone.id, { deletes: mids.slice(third).map((id) => ({ id })) })
    const cleanup = await api.call(
      'GET',
      `/zones/${zone.id}/dns_records?name.startswith=g&per_page=50000`
    )
    if (cleanup.result.length > 0)
      await api.batch(zone.id, { deletes: cleanup.result.map((r) => ({ id: r.id })) })

    const row = { n }
    for (const [kind, times] of [
      ['create', ct],
      ['delete', dt],
      ['mixed', mt],
    ]) {
      row[kind] = {
        batchWall: summarize(res[kind].wall),
        batchServer: summarize(res[kind].server),
        single: perRecordEstimate(times, n),
      }
    }
    rows.push(row)
    log(
      `batch: n=${n} create ${row.create.batchServer.median.toFixed(1)} ms, delete ${row.delete.batchServer.median.toFixed(1)} ms, mixed ${row.mixed.batchServer.median.toFixed(1)} ms (server medians)`
    )
  }
  return { baseSize, rows }
}
