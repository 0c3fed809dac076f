/**
 * @module Query names drawn from a whole zone instead of a pool: `uniform` over every index, or
 * `zipf` (exponent `s`) over ranks mapped to indexes by a fixed permutation, so the hot names
 * spread over the zone's buckets instead of sitting in a few. Used by the load generator
 * (bench/lib/load-child.mjs, spec `gen`) and by the answer probe before a run.
 *
 * Spec: { kind: 'zipf' | 'uniform', zone, size, s = 1, prefix = 'base-' }; names are
 * `<prefix><index>.<zone>` for index in [0, size).
 *
 * Over many zones (bench/lib/hosted-zones.mjs): { kind: 'zones', parent, zones, maxRecords, s = 1,
 * zoneKind = 'zipf' }: a zone n drawn Zipf (or uniform, or `sequence`: start, start + 1, …) over [0, zones) with the same permutation,
 * then one of its names (`www`, `r1`, … of `z<n>.<parent>`, 1 + (n · 7919 mod maxRecords) of
 * them) drawn Zipf within the zone. Outside every zone: { kind: 'outside' }: 2–5 random labels
 * of 3–12 letters and digits (the last one too: no known top-level domain), a name no query repeats.
 */
import { wirePath } from './dnswire.mjs'

/** Multiplier of the rank → index permutation (rank · P mod size): a large prime (Knuth's 2^32/φ). */
const P = 2_654_435_761

const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b))

/** A multiplier coprime to `size`, so rank · m mod size is a permutation of [0, size). */
function permutationMultiplier(size) {
  let m = P % size || 1
  while (gcd(m, size) !== 1) m++
  return m
}

/** Cumulative Zipf(s) weights of ranks 0 … size−1, normalised to end at 1. */
function zipfCdf(size, s = 1) {
  const cdf = new Float64Array(size)
  let sum = 0
  for (let r = 0; r < size; r++) {
    sum += 1 / Math.pow(r + 1, s)
    cdf[r] = sum
  }
  for (let r = 0; r < size; r++) cdf[r] /= sum
  return cdf
}

/** First rank whose cumulative weight reaches `u` (binary search). */
function rankOf(cdf, u) {
  let lo = 0
  let hi = cdf.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (cdf[mid] < u) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A function returning the next index in [0, size) of the spec's distribution, using `random` (uniform in [0, 1)). */
export function indexSampler(spec, random) {
  const { kind, size } = spec
  if (!(size > 0)) throw new Error(`name generator: size must be positive, got ${size}`)
  if (kind === 'uniform') return () => Math.floor(random() * size)
  if (kind === 'sequence') {
    let next = spec.start ?? 0
    return () => next++ % size
  }
  if (kind === 'zipf') {
    const cdf = zipfCdf(size, spec.s ?? 1)
    const m = permutationMultiplier(size)
    return () => (rankOf(cdf, random()) * m) % size
  }
  throw new Error(`name generator: unknown kind ${kind}`)
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** Names of zones drawn Zipf, names within each zone drawn Zipf (spec kind 'zones'). */
function zonesSampler(spec, random) {
  const zone = indexSampler(
    { kind: spec.zoneKind ?? 'zipf', size: spec.zones, s: spec.s, start: spec.start },
    random
  )
  const within = Array.from({ length: spec.maxRecords }, (_, k) =>
    indexSampler({ kind: 'zipf', size: k + 1, s: spec.s }, random)
  )
  return () => {
    const n = zone()
    const j = within[(n * 7919) % spec.maxRecords]()
    return `${j === 0 ? 'www' : `r${j}`}.z${n}.${spec.parent}`
  }
}

/** Random names (spec kind 'outside'). */
function outsideSampler(spec, random) {
  const label = () => {
    let out = ''
    for (let k = 3 + Math.floor(random() * 10); k > 0; k--)
      out += ALPHABET[Math.floor(random() * ALPHABET.length)]
    return out
  }
  return () => {
    return Array.from({ length: 2 + Math.floor(random() * 4) }, label).join('.')
  }
}

/** A function returning the next query name of the spec. */
export function nameSampler(spec, random) {
  if (spec.kind === 'zones') return zonesSampler(spec, random)
  if (spec.kind === 'outside') return outsideSampler(spec, random)
  const next = indexSampler(spec, random)
  const prefix = spec.prefix ?? 'base-'
  return () => `${prefix}${next()}.${spec.zone}`
}

/** A function returning the next RFC 8484 GET path of the spec (type A). */
export function pathSampler(spec, random) {
  const next = nameSampler(spec, random)
  return () => wirePath(next())
}

/** Reproducible uniform numbers in [0, 1) (mulberry32). */
export function seededRandom(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
