/**
 * @module `node bench/zone-index.mjs [zones…]` (Node 22: `pnpm exec node`, which loads the package's
 * TypeScript by type stripping). Measures the hosted-zone index (packages/zone-feed/src/zone-index.ts,
 * a binary fuse filter with 16-bit fingerprints) against the exact alternative, a sorted array of the
 * same 64-bit name hashes with a 2^16-bucket directory, at 100,000 and 1,000,000 zones by default:
 * build ms, encoded bytes per zone, decode ms, `has` ns (a hot set of 1,024 names, members and
 * non-members, and 1,000,000 distinct names once each), and the false-positive rate over 1,000,000
 * random names that are not hosted. Times are the minimum over `BENCH_REPS` runs (default 5).
 * Prints a Markdown table; writes nothing.
 */
import { ZoneIndex, zoneNameHash } from '../packages/zone-feed/src/zone-index.ts'

const REPS = Number(process.env.BENCH_REPS ?? 5)
const PROBES = 1_000_000
const HOT = 1024
const HOT_CALLS = 2_000_000
const sizes = process.argv.slice(2).map(Number)
if (sizes.length === 0) sizes.push(100_000, 1_000_000)

/** mulberry32: a seeded generator, so every run measures the same names. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SUFFIXES = ['com', 'net', 'org', 'io', 'de', 'co.uk', 'com.au', 'dev', 'app', 'example']
const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-'

/** Zone-like names: one or two labels of 3 to 15 characters under a public suffix. */
function nameGenerator(seed) {
  const random = rng(seed)
  const label = () => {
    const n = 3 + Math.floor(random() * 13)
    let s = CHARS[Math.floor(random() * 26)]
    for (let i = 1; i < n; i++) s += CHARS[Math.floor(random() * CHARS.length)]
    return s
  }
  return () => {
    const suffix = SUFFIXES[Math.floor(random() * SUFFIXES.length)]
    // Joined, so each name is one flat string, as names decoded from a query or read from D1 are.
    return (random() < 0.8 ? [label(), suffix] : [label(), label(), suffix]).join('.')
  }
}

function distinctNames(count, seed, exclude) {
  const next = nameGenerator(seed)
  const names = new Set()
  while (names.size < count) {
    const name = next()
    if (!exclude?.has(name)) names.add(name)
  }
  return [...names]
}

/** The exact alternative: sorted 64-bit hashes (hi, lo interleaved) and a directory by the top 16 bits. */
class SortedHashIndex {
  constructor(pairs) {
    this.pairs = pairs // Uint32Array [hi0, lo0, hi1, lo1, …] sorted
    const n = pairs.length / 2
    this.dir = new Uint32Array(65537)
    for (let i = 0; i < n; i++) this.dir[(pairs[2 * i] >>> 16) + 1]++
    for (let b = 1; b < this.dir.length; b++) this.dir[b] += this.dir[b - 1]
  }

  static build(names) {
    const keys = new BigUint64Array(names.length)
    const words = new Uint32Array(keys.buffer) // little-endian: [lo, hi] per key
    for (let i = 0; i < names.length; i++) {
      const [hi, lo] = zoneNameHash(names[i])
      words[2 * i] = lo
      words[2 * i + 1] = hi
    }
    keys.sort()
    let kept = 0
    for (let i = 0; i < keys.length; i++)
      if (i === 0 || keys[i] !== keys[i - 1]) keys[kept++] = keys[i]
    const pairs = new Uint32Array(2 * kept)
    for (let i = 0; i < kept; i++) {
      pairs[2 * i] = words[2 * i + 1]
      pairs[2 * i + 1] = words[2 * i]
    }
    return new SortedHashIndex(pairs)
  }

  static decode(bytes) {
    const pairs = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
    return new SortedHashIndex(pairs)
  }

  encode() {
    return new Uint8Array(this.pairs.buffer, this.pairs.byteOffset, this.pairs.byteLength)
  }

  has(zone) {
    const [hi, lo] = zoneNameHash(zone)
    const pairs = this.pairs
    let a = this.dir[hi >>> 16]
    let b = this.dir[(hi >>> 16) + 1]
    while (a < b) {
      const m = (a + b) >>> 1
      const h = pairs[2 * m]
      if (h < hi || (h === hi && pairs[2 * m + 1] < lo)) a = m + 1
      else b = m
    }
    return a < this.dir[(hi >>> 16) + 1] && pairs[2 * a] === hi && pairs[2 * a + 1] === lo
  }
}

function minTime(run) {
  let best = Infinity
  let result
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now()
    result = run()
    best = Math.min(best, performance.now() - t0)
  }
  return { ms: best, result }
}

function nsPerCall(index, names, calls) {
  let sink = 0
  const { ms } = minTime(() => {
    for (let i = 0; i < calls; i++) if (index.has(names[i % names.length])) sink++
  })
  if (sink < 0) console.log(sink)
  return (ms * 1e6) / calls
}

const rows = []
for (const size of sizes) {
  const members = distinctNames(size, 1, null)
  const memberSet = new Set(members)
  const outsiders = distinctNames(PROBES, 2, memberSet)
  memberSet.clear()
  for (const [kind, Index] of [
    ['binary fuse16', ZoneIndex],
    ['sorted 64-bit hashes', SortedHashIndex],
  ]) {
    const build = minTime(() => Index.build(members))
    const bytes = build.result.encode()
    const decode = minTime(() => Index.decode(bytes))
    const index = decode.result
    let missing = 0
    for (const name of members) if (!index.has(name)) missing++
    if (missing) throw new Error(`${kind}: ${missing} false negatives`)
    let falsePositives = 0
    for (const name of outsiders) if (index.has(name)) falsePositives++
    rows.push({
      zones: size,
      kind,
      buildMs: build.ms,
      bytesPerZone: bytes.byteLength / size,
      mb: bytes.byteLength / 2 ** 20,
      decodeMs: decode.ms,
      hotMember: nsPerCall(index, members.slice(0, HOT), HOT_CALLS),
      hotOutsider: nsPerCall(index, outsiders.slice(0, HOT), HOT_CALLS),
      cold: nsPerCall(index, outsiders, outsiders.length),
      falsePositives,
      fpRate: falsePositives / outsiders.length,
    })
  }
}

console.log(
  `Node ${process.version}, ${REPS} runs (minimum), ${PROBES.toLocaleString('en')} non-member probes\n`
)
console.log(
  '| zones | structure | build ms | bytes/zone | MiB | decode ms | has() ns hot member | hot non-member | 1 M distinct names | false positives | FP rate |'
)
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) {
  console.log(
    `| ${r.zones.toLocaleString('en')} | ${r.kind} | ${r.buildMs.toFixed(0)} | ${r.bytesPerZone.toFixed(2)} | ${r.mb.toFixed(2)} | ${r.decodeMs.toFixed(2)} | ${r.hotMember.toFixed(0)} | ${r.hotOutsider.toFixed(0)} | ${r.cold.toFixed(0)} | ${r.falsePositives} | ${r.fpRate.toExponential(1)} |`
  )
}
