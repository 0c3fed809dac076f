/**
 * @module A binary fuse filter with 16-bit fingerprints (arity 3) over 64-bit keys, after Graf and
 * Lemire, "Binary Fuse Filters: Fast and Smaller Than Xor Filters" (2022). A key is two unsigned
 * 32-bit halves (`hi`, `lo`) so that nothing needs BigInt. Membership has no false negatives and a
 * false-positive rate of about 2^-16 per probe.
 *
 * Construction (`populateFuse16`) maps each key through a seeded 64-bit bijection, gives it three
 * slots in three consecutive segments, and peels the slot hypergraph; when peeling fails it
 * retries with the next seed of a fixed sequence (so a build is deterministic for a given key
 * order). Keys must be distinct: the caller removes duplicates first.
 */

/** The layout of a filter for a given number of keys (a pure function of that number). */
export interface FuseLayout {
  segmentLength: number
  segmentCount: number
  /** segmentCount × segmentLength: the range of the first slot. */
  segmentCountLength: number
  /** Fingerprints in the array: (segmentCount + 2) × segmentLength, or 0 for no key. */
  arrayLength: number
}

export interface Fuse16 {
  layout: FuseLayout
  seed0: number
  seed1: number
  fingerprints: Uint16Array
}

/** Seeds tried before construction gives up (each succeeds with probability well above 1/2). */
export const MAX_ATTEMPTS = 100

/** The longest segment a layout has. */
export const MAX_SEGMENT_LENGTH = 1 << 18

/** A layout from its segment length and count (count 0: the filter of no key). */
export function layoutOf(segmentLength: number, segmentCount: number): FuseLayout {
  return {
    segmentLength,
    segmentCount,
    segmentCountLength: segmentCount * segmentLength,
    arrayLength: segmentCount === 0 ? 0 : (segmentCount + 2) * segmentLength,
  }
}

/** The layout for `size` distinct keys (the parameters of the reference implementation). */
export function fuseLayout(size: number): FuseLayout {
  if (size === 0) return layoutOf(4, 0)
  const segmentLength = Math.min(
    MAX_SEGMENT_LENGTH,
    2 ** Math.max(0, Math.floor(Math.log(size) / Math.log(3.33) + 2.25))
  )
  const sizeFactor =
    size <= 1 ? 0 : Math.max(1.125, 0.875 + (0.25 * Math.log(1e6)) / Math.log(size))
  const capacity = size <= 1 ? 0 : Math.round(size * sizeFactor)
  return layoutOf(segmentLength, Math.max(1, Math.ceil(capacity / segmentLength) - 2))
}

/** murmur3's 32-bit finaliser. */
function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** The mixed key of the last `mix` call: two outputs without allocating (a typed array holds
 * unsigned 32-bit values unboxed, where a module variable boxes those outside the small-integer
 * range). */
const mixed = new Uint32Array(2)

/** A seeded bijection of 64-bit keys: a three-round Feistel network with `fmix32` rounds. */
function mix(hi: number, lo: number, seed0: number, seed1: number): void {
  let l = hi ^ seed0
  let r = lo ^ seed1
  l ^= fmix32(r)
  r ^= fmix32(l ^ 0x9e3779b9)
  l ^= fmix32(r ^ 0x7f4a7c15)
  mixed[0] = l
  mixed[1] = r
}

/** The first slot of a mixed key: `hi` scaled to [0, segmentCountLength). */
function firstSlot(hi: number, segmentCountLength: number): number {
  return Math.floor((hi * segmentCountLength) / 4294967296)
}

/** Bits of a mixed key that place its second slot within its segment. */
function secondOffset(hi: number, lo: number): number {
  return (lo >>> 18) | (hi << 14)
}

function fingerprint(hi: number, lo: number): number {
  return (hi ^ lo) & 0xffff
}

/** Whether the key (hi, lo) may be in the filter (no false negatives). */
export function fuse16Contains(filter: Fuse16, hi: number, lo: number): boolean {
  const fp = filter.fingerprints
  if (fp.length === 0) return false
  const { segmentLength, segmentCountLength } = filter.layout
  mix(hi, lo, filter.seed0, filter.seed1)
  const mixedHi = mixed[0]!
  const mixedLo = mixed[1]!
  const mask = segmentLength - 1
  const h0 = firstSlot(mixedHi, segmentCountLength)
  const h1 = (h0 + segmentLength) ^ (secondOffset(mixedHi, mixedLo) & mask)
  const h2 = (h0 + 2 * segmentLength) ^ (mixedLo & mask)
  return (fingerprint(mixedHi, mixedLo) ^ fp[h0]! ^ fp[h1]! ^ fp[h2]!) === 0
}

function setSlots(
  h012: Uint32Array,
  hi: number,
  lo: number,
  segmentLength: number,
  segmentCountLength: number
): void {
  const mask = segmentLength - 1
  const h0 = firstSlot(hi, segmentCountLength)
  h012[0] = h0
  h012[1] = (h0 + segmentLength) ^ (secondOffset(hi, lo) & mask)
  h012[2] = (h0 + 2 * segmentLength) ^ (lo & mask)
  h012[3] = h012[0]!
  h012[4] = h012[1]!
}

/** splitmix32: the fixed sequence of seeds tried by construction. */
function nextSeed(state: Uint32Array): number {
  state[0] = (state[0]! + 0x9e3779b9) >>> 0
  let z = state[0]!
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad)
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97)
  return (z ^ (z >>> 15)) >>> 0
}

/**
 * A filter of the first `n` keys (hi[i], lo[i]), which must be distinct. `attempts` is how many
 * seeds were tried. Throws if no seed of `MAX_ATTEMPTS` works, which distinct keys make
 * vanishingly unlikely.
 */
export function populateFuse16(
  keysHi: Uint32Array,
  keysLo: Uint32Array,
  n: number
): Fuse16 & { attempts: number } {
  const layout = fuseLayout(n)
  const fingerprints = new Uint16Array(layout.arrayLength)
  if (n === 0) return { layout, seed0: 0, seed1: 0, fingerprints, attempts: 0 }
  const len = layout.arrayLength
  // Per slot, three words side by side (one cache line per slot visited): the XOR of the high
  // and of the low halves of the mixed keys in the slot, and 4 × their number | the XOR of
  // their slot indices (0, 1, 2), which is the lone key's slot index when one key is left.
  const t2 = new Uint32Array(3 * len)
  const alone = new Uint32Array(len)
  const orderHi = new Uint32Array(n) // mixed keys by segment, then the peeling order
  const orderLo = new Uint32Array(n)
  const peeledAt = new Uint8Array(n) // which of its three slots each peeled key was alone in
  let blockBits = 1
  while (1 << blockBits < layout.segmentCount) blockBits++
  const start = new Uint32Array((1 << blockBits) + 1)
  const rng = new Uint32Array([0x726b2b9d])
  const { segmentLength, segmentCountLength } = layout
  const mask = segmentLength - 1
  const h012 = new Uint32Array(5) // a key's slots 0, 1, 2, 0, 1: slot (found + k) is h012[found + k]

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const seed0 = nextSeed(rng)
    const seed1 = nextSeed(rng)
    // Order the mixed keys by their first slot's region (a counting sort): nearby slots are
    // touched together, which keeps the next pass within the CPU caches.
    start.fill(0)
    for (let i = 0; i < n; i++) {
      mix(keysHi[i]!, keysLo[i]!, seed0, seed1)
      start[(mixed[0]! >>> (32 - blockBits)) + 1]!++
    }
    for (let b = 1; b < start.length; b++) start[b]! += start[b - 1]!
    for (let i = 0; i < n; i++) {
      mix(keysHi[i]!, keysLo[i]!, seed0, seed1)
      const at = start[mixed[0]! >>> (32 - blockBits)]!++
      orderHi[at] = mixed[0]!
      orderLo[at] = mixed[1]!
    }

    t2.fill(0)
    for (let i = 0; i < n; i++) {
      const hi = orderHi[i]!
      const lo = orderLo[i]!
      const s0 = firstSlot(hi, segmentCountLength)
      const h0 = 3 * s0
      const h1 = 3 * ((s0 + segmentLength) ^ (secondOffset(hi, lo) & mask))
      const h2 = 3 * ((s0 + 2 * segmentLength) ^ (lo & mask))
      t2[h0]! ^= hi
      t2[h0 + 1]! ^= lo
      t2[h0 + 2]! += 4
      t2[h1]! ^= hi
      t2[h1 + 1]! ^= lo
      t2[h1 + 2] = (t2[h1 + 2]! + 4) ^ 1
      t2[h2]! ^= hi
      t2[h2 + 1]! ^= lo
      t2[h2 + 2] = (t2[h2 + 2]! + 4) ^ 2
    }

    // Peel: repeatedly take a slot holding one key, which fixes that key's fingerprint last.
    let queued = 0
    for (let i = 0; i < len; i++) {
      alone[queued] = i
      if (t2[3 * i + 2]! >>> 2 === 1) queued++
    }
    let peeled = 0
    while (queued > 0) {
      const index = alone[--queued]!
      const count = t2[3 * index + 2]!
      if (count >>> 2 !== 1) continue
      const hi = t2[3 * index]!
      const lo = t2[3 * index + 1]!
      const found = count & 3
      orderHi[peeled] = hi
      orderLo[peeled] = lo
      peeledAt[peeled] = found
      peeled++
      setSlots(h012, hi, lo, segmentLength, segmentCountLength)
      // Remove the key from its two other slots (slot indices found+1 and found+2, mod 3).
      for (let k = 1; k <= 2; k++) {
        const which = found + k > 2 ? found + k - 3 : found + k
        const other = h012[found + k]!
        const at = 3 * other
        alone[queued] = other
        if (t2[at + 2]! >>> 2 === 2) queued++
        t2[at]! ^= hi
        t2[at + 1]! ^= lo
        t2[at + 2] = (t2[at + 2]! - 4) ^ which
      }
    }
    if (peeled !== n) continue

    // Assign in reverse peeling order: each key's lone slot is set so its three slots XOR to
    // its fingerprint; slots assigned later never belong to keys assigned earlier.
    for (let i = n - 1; i >= 0; i--) {
      const hi = orderHi[i]!
      const lo = orderLo[i]!
      setSlots(h012, hi, lo, segmentLength, segmentCountLength)
      const found = peeledAt[i]!
      fingerprints[h012[found]!] =
        fingerprint(hi, lo) ^ fingerprints[h012[found + 1]!]! ^ fingerprints[h012[found + 2]!]!
    }
    return { layout, seed0, seed1, fingerprints, attempts: attempt }
  }
  throw new Error(`binary fuse filter: no seed of ${MAX_ATTEMPTS} built a filter of ${n} keys`)
}
