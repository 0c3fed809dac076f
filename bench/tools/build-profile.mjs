/**
 * @module Focused builder profile (not part of `pnpm bench`): seeds a zone, then times full builds
 * (per phase) and one 10,000-create batch from commit to built. Use it to compare builder changes.
 * usage: node bench/tools/build-profile.mjs [size=300000] [fullBuilds=2]
 */
import { aRecord, apiClient, seedZone } from '../lib/api.mjs'
import { waitBuilt } from '../lib/propagation.mjs'
import { startBenchStack } from '../lib/stack.mjs'

const [size = 300_000, reps = 2] = process.argv.slice(2).map(Number)
const stack = await startBenchStack()
const api = apiClient(stack.url, stack.token)
try {
  const zone = await api.createZone(`build-${Date.now().toString(36)}.example`)
  let t0 = performance.now()
  await seedZone(api, zone.id, size, 'base', 50_000)
  const committed = performance.now() - t0
  await waitBuilt(api, zone.id, { timeoutMs: 3_600_000 })
  console.log(
    JSON.stringify({
      size,
      seedCommittedMs: Math.round(committed),
      seedBuiltMs: Math.round(performance.now() - t0),
    })
  )
  const builder = await stack.builder(zone.id)
  for (let r = 0; r < reps; r++) {
    t0 = performance.now()
    const { result } = await api.call('POST', `/zones/${zone.id}/propagation/rebuild`, {})
    await waitBuilt(api, zone.id, { seq: result.seq, everyMs: 50, timeoutMs: 3_600_000 })
    const s = (await builder.status()).lastFullBuild
    console.log(
      JSON.stringify({
        full: Math.round(performance.now() - t0),
        ms: s?.ms,
        keys: s?.keysWritten,
        phaseMs: s?.phaseMs,
      })
    )
  }
  const posts = Array.from({ length: 10_000 }, (_, i) => aRecord('bulk', i))
  const b = await api.batch(zone.id, { posts })
  const built = await waitBuilt(api, zone.id, { seq: b.seq, everyMs: 5 })
  console.log(
    JSON.stringify({
      batch10k: {
        serverMs: b.serverMs,
        responseMs: Math.round(b.wallMs),
        builtAfterResponseMs: Math.round(built),
      },
      lastPass: (await builder.status()).lastPass,
    })
  )
} finally {
  await stack.close()
}
