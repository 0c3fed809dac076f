/**
 * @module Heap bytes one held zone costs a DoH isolate's zone view (run with
 * `pnpm exec node --expose-gc bench/tools/held-zone-bytes.mjs [zones] [apex|name] [own|hosted]`): small zones
 * (two A records, 16 buckets) are looked up once each through a `KvZoneView` with room for all of
 * them, and the heap growth is divided by the zone count, next to what the view charges itself.
 * `apex` looks up each apex (the zone entry alone); `name` looks up each apex, then a name of
 * each (the entry, then the bucket the name needs, each measured). The third argument `hosted`
 * takes the bench's hosted zones instead (bench/lib/hosted-zones.mjs: one bucket, up to 8 records,
 * name servers and SOA shared by every zone, as on a platform). Every KV read returns a fresh copy
 * of the stored text, as a KV read does in an isolate: bucket texts held are the view's own.
 */
import { zoneImage } from '../../packages/kv-layout/src/image.ts'
import { KvZoneView } from '../../packages/kv-layout/src/kv-zone-view.ts'
import { zoneEntries } from '../lib/hosted-zones.mjs'

const zones = Number(process.argv[2] ?? 20_000)
const what = process.argv[3] ?? 'apex'
const shape = process.argv[4] ?? 'own'
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
if (shape === 'hosted')
  for (let z = 0; z < zones; z++)
    for (const [k, v] of zoneEntries(z, 'bench.example', 8)) store.set(k, v)
for (let z = 0; z < zones && shape !== 'hosted'; z++) {
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
// Flat copies: a concatenated key or value flattened during the lookups would move the heap.
for (const [k, v] of [...store]) {
  store.delete(k)
  store.set(JSON.parse(JSON.stringify(k)), JSON.parse(JSON.stringify(v)))
}
// A fresh flat copy per read: what the view keeps is its own, as with KV in an isolate.
const copy = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)))
const kv = { get: async (keys) => new Map(keys.map((k) => [k, copy(store.get(k))])) }
const room = 4 * 1024 ** 3
const view = new KvZoneView(kv, { revalidateMs: 1e12, cacheBytes: room, zoneCacheBytes: room })
const zoneName = (z) => `${shape === 'hosted' ? `z${z}` : `zone${z}`}.bench.example`
/** Heap growth per zone and the view's charge per zone after looking up `prefix` + each zone. */
async function measure(prefix) {
  globalThis.gc()
  const heapBefore = process.memoryUsage().heapUsed
  const chargedBefore = view.snapshot().cacheBytes
  for (let z = 0; z < zones; z++) await view.lookup(`${prefix}${zoneName(z)}`)
  globalThis.gc()
  return {
    heap: Math.round((process.memoryUsage().heapUsed - heapBefore) / zones),
    charged: Math.round((view.snapshot().cacheBytes - chargedBefore) / zones),
  }
}
const entry = await measure('')
const bucket = what === 'apex' ? null : await measure('www.')
const s = view.snapshot()
console.log(
  JSON.stringify({
    zones: s.zones,
    buckets: s.cachedBuckets,
    lookup: what,
    heapBytesPerZone: entry.heap + (bucket?.heap ?? 0),
    chargedBytesPerZone: entry.charged + (bucket?.charged ?? 0),
    entryHeapBytes: entry.heap,
    entryChargedBytes: entry.charged,
    ...(bucket && { bucketHeapBytes: bucket.heap, bucketChargedBytes: bucket.charged }),
  })
)
