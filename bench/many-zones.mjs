/**
 * @module Many zones over several D1 shards (own stack with `BENCH_MANY_SHARDS` databases, default 3:
 * one account per shard, each account's zones on its shard, every zone in the directory on shard 0). A sample of zones is created through the API
 * (`BENCH_MANY_API_ZONES`, default 300: zone + one record batch each, built into KV by their builders): the creation rate, KV keys per
 * zone, DoH throughput over the sample with zones drawn Zipf-distributed (ratio to the empty worker
 * fed the same requests) and start to first answer come from it. The rest, up to `BENCH_MANY_ZONES`
 * (default 100,000), are written straight into D1 in chunks with the rows the API writes for them
 * (zone row, 1–20 records, their change-log entries) and marked built: they weigh on D1 — listing,
 * the sweep, bytes per record — but are not in KV. Then: `GET /zones` page latency at the sample
 * size and at the full size (first page, a middle page by cursor, the same page by offset), the
 * sweep's work with 100 zones behind, and D1 bytes per record (D1's own `size_after`).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  dohStats,
  measureSaturation,
  measureTarget,
  probeGen,
  statsDelta,
  warmUp,
} from './lib/dohload.mjs'
import { kvValueCount, snapshotKv } from './lib/snapshot.mjs'
import { summarize } from './lib/stats.mjs'
import { timeFirstAnswer } from './startup.mjs'
import { seedInD1, SEED_PARENT } from './lib/d1-zone-seed.mjs'

const PARENT = SEED_PARENT
const zoneNameOf = (i) => `z${i}.${PARENT}`
/** Records of zone i: 1–20, spread by a fixed multiplier. */
const recordsOf = (i) => 1 + ((i * 7919) % 20)
/** A zone's records: `www` and `r<k>` A records (the DoH mix asks for `www`). */
const recordBatch = (i) => ({
  posts: Array.from({ length: recordsOf(i) }, (_, k) => ({
    type: 'A',
    name: k === 0 ? 'www' : `r${k}`,
    content: `10.${(i >> 8) & 255}.${i & 255}.${k}`,
    ttl: 300,
  })),
})

/** Bytes of every KV value (blob file) in a state directory. */
function kvValueBytes(stateDir) {
  const kv = path.join(stateDir, 'kv')
  let bytes = 0
  for (const ns of readdirSync(kv)) {
    const blobs = path.join(kv, ns, 'blobs')
    let files = []
    try {
      files = readdirSync(blobs).filter((f) => !f.startsWith('.'))
    } catch {}
    for (const f of files) bytes += statSync(path.join(blobs, f)).size
  }
  return bytes
}

const envInt = (name, dflt) => {
  const n = Number(process.env[name])
  return Number.isInteger(n) && n > 0 ? n : dflt
}

/** D1 shards of the section's stack (one account placed on each). */
export const manyZonesShards = () => envInt('BENCH_MANY_SHARDS', 3)

/** D1's own size of every shard, summed. */
async function d1Size(dbs) {
  let bytes = 0
  for (const db of dbs) bytes += (await db.prepare('SELECT 1').run()).meta.size_after
  return bytes
}

async function inParallel(n, width, fn) {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++)
    })
  )
}

/** The sample through the API: each zone created, then its records in one batch. */
async function createThroughApi(api, n, shards, log) {
  // One new account per shard: placement puts each on the shard holding the fewest accounts.
  const accounts = []
  for (let a = 0; a < shards; a++)
    accounts.push((await api.call('POST', '/accounts', { name: `many-zones-${a}` })).result)
  const ids = new Array(n)
  const createMs = []
  const t0 = performance.now()
  const createOne = async (i) => {
    const c0 = performance.now()
    const zone = (
      await api.call('POST', '/zones', {
        name: zoneNameOf(i),
        account: { id: accounts[i % shards].id },
      })
    ).result
    createMs.push(performance.now() - c0)
    await api.batch(zone.id, recordBatch(i))
    ids[i] = zone.id
  }
  // Each account's first zone one at a time (that places the account), then one account per shard:
  // an account placed where another already is moves to a shard nobody has (a move of one zone).
  for (let i = 0; i < Math.min(n, shards); i++) await createOne(i)
  const placed = new Set()
  for (const a of accounts) {
    a.shard = (await api.call('GET', `/accounts/${a.id}/shard`)).result.shard
    if (placed.has(a.shard)) {
      const free = [...Array(shards).keys()].find((s) => !placed.has(s))
      // The move runs in the background (the account's ShardMover): wait until it is done.
      await api.call('PUT', `/accounts/${a.id}/shard`, { shard: free })
      while ((await api.call('GET', `/accounts/${a.id}/shard`)).result.move?.status !== 'done')
        await new Promise((r) => setTimeout(r, 50))
      a.shard = free
    }
    placed.add(a.shard)
  }
  await inParallel(n - Math.min(n, shards), 8, (k) => createOne(k + shards))
  const seconds = (performance.now() - t0) / 1000
  const records = Array.from({ length: n }, (_, i) => recordsOf(i)).reduce((a, b) => a + b, 0)
  log(
    `many zones: ${n} zones (${records} records) through the API in ${seconds.toFixed(1)} s: ${(n / seconds).toFixed(0)} zones/s`
  )
  log(`many zones: accounts on shards ${accounts.map((a) => a.shard).join(', ')}`)
  return {
    ids,
    accounts,
    api: { zones: n, records, seconds, zonesPerSecond: n / seconds, createMs: summarize(createMs) },
  }
}

/** Waits until no zone is behind (the builders drained the sample). */
async function waitAllBuilt(dbs, timeoutMs = 600_000) {
  const t0 = performance.now()
  for (;;) {
    let behind = 0
    for (const db of dbs)
      behind += (await db.prepare('SELECT count(*) AS n FROM zones_behind').first()).n
    if (behind === 0) return performance.now() - t0
    if (performance.now() - t0 > timeoutMs) throw new Error(`${behind} zones still behind`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/**
 * The zones beyond the API sample, in one contiguous range per account (so per shard). Returns the
 * ranges (for finding a zone's shard later), the records and D1's size growth over every shard.
 */
async function seedShards(dbs, accounts, from, to, log) {
  const sizeBefore = await d1Size(dbs)
  const per = Math.ceil((to - from) / accounts.length)
  const ranges = accounts.map((a, r) => ({
    shard: a.shard,
    from: Math.min(to, from + r * per),
    to: Math.min(to, from + (r + 1) * per),
  }))
  let records = 0
  for (const [r, range] of ranges.entries())
    if (range.to > range.from)
      records += await seedInD1(dbs[range.shard], dbs[0], accounts[r].id, range.from, range.to, log)
  const bytes = (await d1Size(dbs)) - sizeBefore
  return { ranges, seed: { zones: to - from, records, bytes } }
}

/** Deepest zone an offset page may reach (`GET /zones` answers 400 beyond, pointing to the cursor). */
const MAX_OFFSET_ZONES = 10_000

/** `GET /zones` latencies: first page, a middle page by offset (which also yields its cursor), the next page by cursor. */
async function listLatency(api, zones, reps) {
  const time = async (path) => {
    const t0 = performance.now()
    const r = await api.call('GET', path)
    return { ms: performance.now() - t0, result: r.result, info: null }
  }
  const perPage = 50
  const runs = async (path) => {
    const ms = []
    for (let r = 0; r < reps; r++) ms.push((await time(path)).ms)
    return summarize(ms)
  }
  const first = await runs(`/zones?per_page=${perPage}`)
  // The middle page, or the deepest the API serves by offset (page × per_page ≤ 10,000 zones;
  // further pages are reached by cursor).
  const middle = Math.max(
    1,
    Math.min(Math.floor(zones / perPage / 2), Math.floor(MAX_OFFSET_ZONES / perPage))
  )
  const offsetPath = `/zones?per_page=${perPage}&page=${middle}`
  const offset = await runs(offsetPath)
  const res = await fetch(api.base + offsetPath, { headers: api.headers })
  const after = (await res.json()).result_info.cursors?.after
  const cursor = after ? await runs(`/zones?per_page=${perPage}&cursor=${after}`) : null
  return { zones, perPage, middlePage: middle, first, offset, cursor }
}

/** The old sweep query (a scan of every zone), timed for contrast with the list the sweep reads now. */
const SCAN_SQL = `SELECT z.id FROM zones z LEFT JOIN build_state b ON b.zone_id = z.id
   WHERE z.change_seq > coalesce(b.built_seq, 0) LIMIT 1000`

async function sweepWork(api, dbs, shardOfZone, total, behind) {
  // `behind` zones commit a change nobody told their builders about (a full-build request each).
  const pick = Array.from({ length: behind }, (_, k) => Math.floor(((k + 0.5) * total) / behind))
  const now = new Date().toISOString()
  for (const i of pick) {
    const db = dbs[shardOfZone(i)]
    await db.batch([
      db
        .prepare(
          `UPDATE zones SET change_seq = change_seq + 1, version = version + 1 WHERE name = ?1`
        )
        .bind(zoneNameOf(i)),
      db
        .prepare(
          `INSERT INTO change_log (zone_id, seq, op, created_on) SELECT id, change_seq, 'full', ?2 FROM zones WHERE name = ?1`
        )
        .bind(zoneNameOf(i), now),
    ])
  }
  // The sweep's own list query and the scan of every zone it replaced, on the same data, every shard.
  let listed = 0
  const listQuery = { ms: 0, rowsRead: 0 }
  const scanQuery = { ms: 0, rowsRead: 0 }
  for (const db of dbs) {
    listed += (await db.prepare('SELECT count(*) AS n FROM zones_behind').first()).n
    const l0 = performance.now()
    const list = await db
      .prepare(
        `SELECT w.zone_id, w.seq, coalesce(b.built_seq, 0) AS built FROM zones_behind w
           LEFT JOIN build_state b ON b.zone_id = w.zone_id ORDER BY w.notified_at LIMIT 1000`
      )
      .all()
    listQuery.ms += performance.now() - l0
    listQuery.rowsRead += list.meta.rows_read
    const s0 = performance.now()
    const scan = await db.prepare(SCAN_SQL).all()
    scanQuery.ms += performance.now() - s0
    scanQuery.rowsRead += scan.meta.rows_read
  }
  const t0 = performance.now()
  const run = (await api.call('POST', '/propagation/sweep')).result
  const sweepMs = performance.now() - t0
  return {
    zones: total,
    behind,
    listed,
    shards: dbs.length,
    notified: run.notified,
    sweepMs,
    listQuery,
    scanQuery,
  }
}

async function dohOverZones(stack, sample, quick, log) {
  const plan = {
    reps: quick ? 1 : 2,
    duration: quick ? 3 : 4,
    connections: 32,
    fixedConnections: 16,
  }
  const gen = { kind: 'zipf', s: 1, zone: PARENT, size: sample, prefix: 'www.z' }
  await probeGen(stack.dohUrl, gen)
  await warmUp({ url: stack.dohUrl, gen, duration: 3, seed: 7 })
  const before = await dohStats(stack.dohUrl)
  const m = await measureTarget({ url: stack.dohUrl, gen, plan })
  const after = await dohStats(stack.dohUrl)
  const empty = await measureSaturation({ url: stack.emptyUrl, gen, plan })
  const ratio = m.sat.rps.median / empty.rps.median
  log(
    `many zones: DoH over ${sample} zones (Zipf): ${Math.round(m.sat.rps.median)} q/s, ${ratio.toFixed(2)} of the empty worker; p50 ${m.fixed.p50.median.toFixed(2)} ms at 1,000/s`
  )
  return {
    zones: sample,
    sat: m.sat,
    fixed: m.fixed,
    empty,
    ratio,
    kv: statsDelta(before, after, 2 * plan.reps * plan.duration),
  }
}

export async function runManyZonesBench(ctx) {
  const { api, stack, quick, log } = ctx
  const total = envInt('BENCH_MANY_ZONES', quick ? 20_000 : 100_000)
  const sample = Math.min(total, envInt('BENCH_MANY_API_ZONES', 300))
  const out = { total, sample }
  const client = {
    ...api,
    base: `${stack.url}/client/v4`,
    headers: { authorization: `Bearer ${stack.token}` },
  }

  const shards = stack.dbs.length
  out.shards = shards
  const created = await createThroughApi(api, sample, shards, log)
  out.creation = created.api
  out.creation.buildMs = await waitAllBuilt(stack.dbs)
  log(
    `many zones: the sample built into KV ${(out.creation.buildMs / 1000).toFixed(1)} s after the last write`
  )

  const snap = mkdtempSync(path.join(tmpdir(), 'edgedns-many-'))
  try {
    snapshotKv(stack.stateDir, snap)
    out.kvKeysPerZone = kvValueCount(snap) / sample
    out.kvBytesPerRecord = kvValueBytes(snap) / created.api.records
    out.startup = await timeFirstAnswer({
      dohScript: stack.dohScript,
      stateDir: snap,
      name: `www.${zoneNameOf(0)}`,
    })
  } finally {
    rmSync(snap, { recursive: true, force: true })
  }
  log(
    `many zones: ${out.kvKeysPerZone.toFixed(1)} KV keys per zone, ${out.kvBytesPerRecord.toFixed(0)} KV bytes per record; first answer ${out.startup.answerMs.toFixed(0)} ms after process start`
  )

  out.doh = await dohOverZones(stack, sample, quick, log)

  const reps = quick ? 10 : 20
  out.list = [await listLatency(client, sample, reps)]

  // Seeded in two steps, so that `GET /zones` is also measured at 1,000 zones on the way.
  const t0 = performance.now()
  const ranges = []
  out.seed = { zones: 0, records: 0, bytes: 0 }
  const atThousand = Math.max(sample, Math.min(total, 1000))
  for (const [from, to] of [
    [sample, atThousand],
    [atThousand, total],
  ]) {
    if (to <= from) continue
    const step = await seedShards(stack.dbs, created.accounts, from, to, log)
    ranges.push(...step.ranges)
    for (const k of ['zones', 'records', 'bytes']) out.seed[k] += step.seed[k]
    if (to === atThousand && to < total) out.list.push(await listLatency(client, to, reps))
  }
  out.seed.seconds = (performance.now() - t0) / 1000
  out.d1BytesPerRecord = out.seed.bytes / out.seed.records
  out.d1BytesPerZone = out.seed.bytes / out.seed.zones
  log(
    `many zones: ${out.seed.zones} zones / ${out.seed.records} records into ${shards} D1 shards in ${out.seed.seconds.toFixed(0)} s; D1 grew ${(out.seed.bytes / 2 ** 20).toFixed(0)} MiB: ${out.d1BytesPerRecord.toFixed(0)} bytes per record with its zone's share`
  )
  out.list.push(await listLatency(client, total, reps))
  for (const l of out.list)
    log(
      `many zones: GET /zones at ${l.zones}: first page ${l.first.median.toFixed(1)} ms, page ${l.middlePage} by cursor ${l.cursor?.median.toFixed(1)} ms, by offset ${l.offset.median.toFixed(1)} ms`
    )
  // A zone's shard: the sample's zone i belongs to account i % shards, the rest to their range's.
  const shardOfZone = (i) =>
    i < sample
      ? created.accounts[i % shards].shard
      : ranges.find((r) => i >= r.from && i < r.to).shard
  out.sweep = await sweepWork(client, stack.dbs, shardOfZone, total, 100)
  log(
    `many zones: sweep with ${out.sweep.listed} of ${total} zones behind: notified ${out.sweep.notified} in ${out.sweep.sweepMs.toFixed(0)} ms; its list read ${out.sweep.listQuery.rowsRead} rows (${out.sweep.listQuery.ms.toFixed(1)} ms), the old scan ${out.sweep.scanQuery.rowsRead} rows (${out.sweep.scanQuery.ms.toFixed(1)} ms)`
  )
  return out
}
