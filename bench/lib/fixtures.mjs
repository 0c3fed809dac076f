/**
 * @module The zones every query benchmark uses, ours and the peers': a 1,000-record zone and a
 * large one, each `base-<i>` A records plus a wildcard `*.wild` (and the apex NS/SOA the peers
 * need). Created once per run through the API (batches of 100,000) and reused by every section;
 * query pools of existing, NXDOMAIN and wildcard names come from the same reproducible indexes.
 */
import { aRecord } from './api.mjs'
import { waitBuilt, waitQuiet } from './propagation.mjs'

export const SMALL = 1000

/** Large zone size (BENCH_LARGE overrides): full runs use the issues' 1,000,000, quick runs 10,000. */
export const largeSize = (quick) => Number(process.env.BENCH_LARGE) || (quick ? 10_000 : 1_000_000)

export const zoneName = (kind) => `${kind}.bench.example`

/** The records of a zone besides the apex: `count` A records and one wildcard. */
export function* zoneRecords(count) {
  for (let i = 0; i < count; i++) yield aRecord('base', i)
  yield { type: 'A', name: '*.wild', content: '192.0.2.1', ttl: 300 }
}

/** Query names of one mix, picked at random (seeded) from the zone's index space. */
export function queryNames(zone, count, mix, n = 2000, seed = 7) {
  let s = seed
  const rand = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s
  }
  const out = []
  for (let k = 0; k < n; k++) {
    const i = rand() % count
    if (mix === 'existing') out.push(`base-${i}.${zone}`)
    else if (mix === 'nxdomain') out.push(`nx-${i}.${zone}`)
    else out.push(`w${i}.wild.${zone}`)
  }
  return out
}

export const MIXES = ['existing', 'nxdomain', 'wildcard']

/** What a correct answer to a mix looks like (rcode, answer count ≥ 1). */
export const EXPECT = { existing: 'NOERROR', nxdomain: 'NXDOMAIN', wildcard: 'NOERROR' }

async function seed(api, zoneId, count, log, label) {
  const chunk = 100_000
  let batch = []
  let done = 0
  for (const rec of zoneRecords(count)) {
    batch.push(rec)
    if (batch.length === chunk) {
      await api.batch(zoneId, { posts: batch })
      done += batch.length
      batch = []
      log(`fixtures: ${label} seeded ${done.toLocaleString('en-US')}`)
    }
  }
  if (batch.length > 0) await api.batch(zoneId, { posts: batch })
}

/**
 * The small and large zones, seeded and fully built into KV (cached in `shared`).
 * Returns { small: {id, name, size, seedMs, buildMs}, large: {...} }.
 */
export async function benchZones({ api, stack, quick, log, shared }) {
  if (shared.zones) return shared.zones
  const zones = {}
  for (const [kind, size] of [
    ['small', SMALL],
    ['large', largeSize(quick)],
  ])
    zones[kind] = await createBenchZone({ api, log }, zoneName(kind), size)
  // Visible is not finished: the seed's buckets are flushed and the old bucket counts retired in
  // the background, on the thread every later measurement runs on.
  const quietMs = await waitQuiet(stack, zones, log)
  log(`fixtures: builders quiet ${(quietMs / 1000).toFixed(1)} s after the zones were visible`)
  shared.zones = zones
  return zones
}

/** One zone seeded like the shared ones (any stack) and fully built: {id, name, size, seedMs, buildMs}. */
export async function createBenchZone({ api, log }, name, size) {
  const zone = await api.createZone(name)
  const t0 = performance.now()
  await seed(api, zone.id, size, log, name)
  const seedMs = performance.now() - t0
  const buildMs = await waitBuilt(api, zone.id, { timeoutMs: 3_600_000 })
  log(
    `fixtures: ${name} ${size.toLocaleString('en-US')} records committed in ${(seedMs / 1000).toFixed(1)} s, in KV ${(buildMs / 1000).toFixed(1)} s after the last commit`
  )
  return { id: zone.id, name, size, seedMs, buildMs }
}
