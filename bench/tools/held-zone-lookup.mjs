/**
 * @module Time of a warm lookup in a DoH isolate's zone view (run with
 * `pnpm exec node bench/tools/held-zone-lookup.mjs [zones] [rounds]`): the bench's hosted zones
 * (bench/lib/hosted-zones.mjs) are each looked up once through a `KvZoneView` with room for all,
 * then `rounds` passes look up a name of every zone in a shuffled order; the figure is the median
 * pass's time per lookup, with the KV calls the timed passes made (none when every zone is held).
 */
import { KvZoneView } from '../../packages/kv-layout/src/kv-zone-view.ts'
import { zoneEntries } from '../lib/hosted-zones.mjs'

const zones = Number(process.argv[2] ?? 10_000)
const rounds = Number(process.argv[3] ?? 7)

const store = new Map()
for (let z = 0; z < zones; z++)
  for (const [k, v] of zoneEntries(z, 'bench.example', 8)) store.set(k, v)
const copy = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)))
const kv = { get: async (keys) => new Map(keys.map((k) => [k, copy(store.get(k))])) }
const view = new KvZoneView(kv, { revalidateMs: 1e12 })
const names = Array.from({ length: zones }, (_, z) => `www.z${z}.bench.example`)
for (const name of names) await view.lookup(name)
// A fixed shuffle (Park–Miller), so runs compare.
let seed = 1
for (let i = names.length - 1; i > 0; i--) {
  seed = (seed * 48271) % 2147483647
  const j = seed % (i + 1)
  ;[names[i], names[j]] = [names[j], names[i]]
}
const calls = view.stats.kvCalls
const passes = []
for (let r = 0; r < rounds; r++) {
  const t0 = process.hrtime.bigint()
  for (const name of names) await view.lookup(name)
  passes.push(Number(process.hrtime.bigint() - t0) / 1000 / names.length)
}
passes.sort((a, b) => a - b)
console.log(
  JSON.stringify({
    zones: view.snapshot().zones,
    warmLookupMicros: Number(passes[passes.length >> 1].toFixed(2)),
    fastestMicros: Number(passes[0].toFixed(2)),
    kvCallsTimed: view.stats.kvCalls - calls,
  })
)
