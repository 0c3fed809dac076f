/**
 * @module Focused batch profile (not part of `pnpm bench`): seeds a zone, then runs mixed batches
 * and prints the Server-Timing phases of each. Use it to compare write-path changes quickly.
 * usage: node bench/tools/batch-profile.mjs [baseSize=100000] [n=10000] [reps=5]
 */
import { aRecord, apiClient, seedZone } from '../lib/api.mjs'
import { waitBuilt } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'

const [base = 100_000, n = 10_000, reps = 5] = process.argv.slice(2).map(Number)
const stack = await startBenchStack()
const api = apiClient(stack.url, stack.token)
const phases = (h) =>
  Object.fromEntries(
    [...(h.get('server-timing') ?? '').matchAll(/(\w+);dur=([0-9.]+)/g)].map((m) => [
      m[1],
      Number(m[2]),
    ])
  )
try {
  const zone = await api.createZone(`profile-${Date.now().toString(36)}.example`)
  await seedZone(api, zone.id, base, 'base', 50_000)
  await waitBuilt(api, zone.id)
  let gen = 0
  const fresh = (k) => {
    const g = gen++
    return Array.from({ length: k }, (_, i) => aRecord(`g${g}`, i))
  }
  const rows = []
  for (let r = 0; r < reps; r++) {
    const setup = await api.batch(zone.id, { posts: fresh(n) })
    const sid = setup.result.posts.map((x) => x.id)
    const third = Math.floor(n / 3)
    await waitBuilt(api, zone.id) // the builder shares workerd's thread: let it finish first
    const t0 = performance.now()
    const { result, headers } = await api.call('POST', `/zones/${zone.id}/dns_records/batch`, {
      deletes: sid.slice(0, third).map((id) => ({ id })),
      patches: sid
        .slice(third, 2 * third)
        .map((id, i) => ({ id, content: `172.16.${(i >> 8) & 255}.${i & 255}` })),
      posts: fresh(n - 2 * third),
    })
    const wall = performance.now() - t0
    rows.push({ ...phases(headers), wall })
    console.log(JSON.stringify({ n, ...phases(headers), wall: Math.round(wall) }))
    await waitBuilt(api, zone.id)
    await api.batch(zone.id, {
      deletes: [...sid.slice(third), ...result.posts.map((x) => x.id)].map((id) => ({ id })),
    })
  }
  const med = (k) => {
    const xs = rows
      .map((r) => r[k])
      .filter((x) => x !== undefined)
      .sort((a, b) => a - b)
    return xs[Math.floor(xs.length / 2)]
  }
  console.log(
    'median',
    JSON.stringify(Object.fromEntries(Object.keys(rows[0]).map((k) => [k, med(k)])))
  )
} finally {
  await stack.close()
}
