/**
 * @module Query names drawn from a whole zone instead of a pool: `uniform` over every index, or
 * `zipf` (exponent `s`) over ranks mapped to indexes by a fixed permutation, so the hot names
 * spread over the zone's buckets instead of sitting in a few. Used by the load generator
 * (bench/lib/load-child.mjs, spec `gen`) and by the answer probe before a run.
 *
 * Spec: { kind: 'zipf' | 'uniform', zone, size, s = 1, prefix = 'base-' }; names are
 * `<prefix><index>.<zone>` for index in [0, size).
 */
import { wirePath } from './dnswire.mjs'

/** Multiplier of the rank → index permutation (rank · P mod size): a large prime (Knuth's 2^32/φ). */
const P = 2_654_435_761

const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b))

/** A multiplier coprime to `size`, so rank · m mod size is a permutation of [0, size). */
export function permutationMultiplier(size) {
  let m = P % size || 1
  while (gcd(m, size) !== 1) m++
  return m
}

/** Cumulative Zipf(s) weights of ranks 0 … size−1, normalised to end at 1. */
export function zipfCdf(size, s = 1) {
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
  if (kind === 'zipf') {
    const cdf = zipfCdf(size, spec.s ?? 1)
    const m = permutationMultiplier(size)
    return () => (rankOf(cdf, random()) * m) % size
  }
  throw new Error(`name generator: unknown kind ${kind}`)
}

/** A function returning the next query name of the spec. */
export function nameSampler(spec, random) {
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
