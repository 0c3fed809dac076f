#!/usr/bin/env node
/**
 * @module Where a DoH query's time goes without the runtime: the worker's own `wireQuery`, its
 * zone view and answer cache over an in-memory image of the bench's large zone (`base-<i>` A
 * records and `*.wild`, exactly what the builder writes), fed a Zipf (s = 1) stream of RFC 8484
 * queries. Prints microseconds per query for answer-cache hits and misses.
 *
 *   [PROFILE=1] node --experimental-transform-types \
 *     bench/tools/doh-miss-profile.mjs [names=1000000] [queries=400000] [answerCache=40000]
 *
 * PROFILE=1 profiles the measured queries only (not the image or the warm-up) and prints the
 * functions with the most self time. With `node --expose-gc` it also prints the memory the answer
 * cache really holds (heap and array buffers) beside the bytes it counts against its bound.
 *
 * Confirmations are off (a long revalidation window): this measures the CPU of a hit and of a
 * miss, not KV. The numbers are Node's, not workerd's; compare variants with each other.
 */
import { Session } from 'node:inspector/promises'
import { KvZoneView, zoneImage } from '../../packages/kv-layout/src/index.ts'
import { AnswerCache } from '../../workers/doh/src/answer-cache.ts'
import { wireQuery } from '../../workers/doh/src/wire.ts'
import { printSelfTimes } from '../lib/cpu-profile.mjs'
import { encodeQuery } from '../lib/dnswire.mjs'
import { indexSampler, seededRandom } from '../lib/namegen.mjs'

const [namesArg, queriesArg, cacheArg] = process.argv.slice(2)
const size = Number(namesArg ?? 1_000_000)
const queries = Number(queriesArg ?? 400_000)
const cacheEntries = Number(cacheArg ?? 40_000)
const zone = 'large.bench.example'

const meta = {
  v: 1,
  id: 'a'.repeat(32),
  name: zone,
  serial: 1,
  soa: {
    mname: `ns1.${zone}`,
    rname: `hostmaster.${zone}`,
    refresh: 7200,
    retry: 3600,
    expire: 1209600,
    minimum: 3600,
    ttl: 3600,
  },
  ns: ['ns1.edgedns.dev'],
  proxy: { ipv4: [], ipv6: [] },
  apex: { v: 1, sets: { NS: { ttl: 86400, rdata: ['ns1.edgedns.dev.'] } } },
}

function* nodes() {
  for (let i = 0; i < size; i++)
    yield [
      `base-${i}.${zone}`,
      {
        v: 1,
        sets: { A: { ttl: 300, rdata: [`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`] } },
      },
    ]
  yield [`*.wild.${zone}`, { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.1'] } } }]
}

let t0 = performance.now()
const image = zoneImage(meta, nodes())
const kv = {
  async get(keys) {
    return new Map(keys.map((k) => [k, image.get(k) ?? null]))
  },
}
console.log(
  `image: ${image.size.toLocaleString('en-US')} keys in ${((performance.now() - t0) / 1000).toFixed(1)} s`
)

const view = new KvZoneView(kv, { revalidateMs: 1e9, refreshAheadMs: 1e9 })
let answers =
  cacheEntries > 0
    ? new AnswerCache(
        view,
        cacheEntries,
        60_000,
        Number(process.env.ANSWER_CACHE_MB ?? 20) * 1048576
      )
    : undefined
const next = indexSampler({ kind: 'zipf', size, s: 1 }, seededRandom(101))
const query = () => encodeQuery(`base-${next()}.${zone}`)

// Warm: every bucket held, the answer cache at its steady state.
t0 = performance.now()
for (let i = 0; i < queries; i++) await wireQuery(query(), view, answers)
console.log(
  `warm-up: ${queries.toLocaleString('en-US')} queries in ${((performance.now() - t0) / 1000).toFixed(1)} s`
)

const stream = Array.from({ length: queries }, query)
const session = process.env.PROFILE === '1' ? new Session() : null
if (session) {
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
}
let hitNs = 0
let hits = 0
let missNs = 0
let misses = 0
t0 = performance.now()
for (const bytes of stream) {
  const before = answers?.hits ?? 0
  const s = process.hrtime.bigint()
  const res = await wireQuery(bytes, view, answers)
  await res.arrayBuffer()
  const ns = Number(process.hrtime.bigint() - s)
  if ((answers?.hits ?? 0) > before) {
    hitNs += ns
    hits++
  } else {
    missNs += ns
    misses++
  }
}
const total = performance.now() - t0
console.log(
  `measured: ${queries.toLocaleString('en-US')} queries, ${((1000 * total) / queries).toFixed(1)} µs each; ` +
    `hits ${((100 * hits) / queries).toFixed(1)} % at ${(hitNs / Math.max(1, hits) / 1000).toFixed(1)} µs, ` +
    `misses at ${(missNs / Math.max(1, misses) / 1000).toFixed(1)} µs`
)
if (session) {
  const { profile } = await session.post('Profiler.stop')
  printSelfTimes(profile)
}
// With --expose-gc: what the answer cache really holds (heap and array buffers) against what it counts.
if (globalThis.gc && answers) {
  stream.length = 0
  const used = () => {
    globalThis.gc()
    globalThis.gc()
    const m = process.memoryUsage()
    return m.heapUsed + m.arrayBuffers
  }
  const entries = answers.size
  const counted = answers.bytes
  const withAnswers = used()
  answers = undefined
  const held = withAnswers - used()
  console.log(
    `answer cache: ${entries.toLocaleString('en-US')} entries hold ${(held / 1048576).toFixed(1)} MiB ` +
      `(${Math.round(held / entries)} B each), counted ${(counted / 1048576).toFixed(1)} MiB ` +
      `(${Math.round(counted / entries)} B each)`
  )
}
