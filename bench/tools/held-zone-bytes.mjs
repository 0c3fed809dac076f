/**
 * @module Heap bytes one held zone costs a DoH isolate's zone view (run with
 * `pnpm exec node --expose-gc bench/tools/held-zone-bytes.mjs [zones] [apex|name]`): small zones
 * (two A records, 16 buckets) are looked up once each through a `KvZoneView` with room for all of
 * them, and the heap growth is divided by the zone count, next to what the view charges itself.
 * `apex` looks up each apex (the zone entry alone); `name` a name (entry plus one bucket).
 */
import { zoneImage } from '../../packages/kv-layout/src/image.ts'
import { KvZoneView } from '../../packages/kv-layout/src/kv-zone-view.ts'

const zones = Number(process.argv[2] ?? 20_000)
const what = process.argv[3] ?? 'apex'
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc')

const a = (ip) => ({ v: 1, sets: { A: { ttl: 300, rdata: [ip] } } })
const meta = (name, id) => ({
  v: 1,
  id,
  name,
  serial: 1,
  soa: {
    mname: `ns1.${name}`,
    rname: `hostmaster.${name}`,
    refresh: 7200,
    retry: 3600,
    expire: 1209600,
    minimum: 300,
    ttl: 3600,
  },
  ns: ['ns1.example.net', 'ns2.example.net'],
  proxy: { ipv4: [], ipv6: [] },
  apex: { v: 1, sets: { NS: { ttl: 86400, rdata: ['ns1.example.net.', 'ns2.example.net.'] } } },
  layout: { buckets: 16 },
})

const store = new Map()
for (let z = 0; z < zones; z++) {
  const name = `zone${z}.bench.example`
  const nodes = new Map([
    [`www.${name}`, a('192.0.2.1')],
    [`api.${name}`, a('192.0.2.2')],
  ])
  for (const [k, v] of zoneImage(meta(name, z.toString(16).padStart(32, '0')), nodes, {
    buckets: 16,
  }))
    store.set(k, v)
}
const kv = { get: async (keys) => new Map(keys.map((k) => [k, store.get(k) ?? null])) }
const room = 4 * 1024 ** 3
const view = new KvZoneView(kv, { revalidateMs: 1e12, cacheBytes: room, zoneCacheBytes: room })
globalThis.gc()
const before = process.memoryUsage().heapUsed
for (let z = 0; z < zones; z++)
  await view.lookup(what === 'apex' ? `zone${z}.bench.example` : `www.zone${z}.bench.example`)
globalThis.gc()
const after = process.memoryUsage().heapUsed
const s = view.snapshot()
console.log(
  JSON.stringify({
    zones: s.zones,
    lookup: what,
    heapBytesPerZone: Math.round((after - before) / zones),
    chargedTextBytesPerZone: Math.round(s.cacheBytes / zones),
  })
)
