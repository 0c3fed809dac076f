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
 *
 * Keys and mixed keys live in typed arrays as pairs [hi, lo] and reach helpers as (array, offset):
 * V8 passes numbers between functions it has not inlined as tagged values, which boxes every
 * 32-bit value outside the small-integer range, so passing the halves themselves would allocate
 * on every call of the hot loops.
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
  /** The seed of the key mixing, two 32-bit halves. */
  seed: Uint32Array
  fingerprints: Uint16Array
}

/** Seeds tried before construction gives up (each succeeds with probability well above 1/2). */
const MAX_ATTEMPTS = 100

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

/** The mixed key of the last `mixKey` call, [hi, lo]. */
const mixed = new Uint32Array(2)

/**
 * Mixes the key at keys[at], keys[at + 1] with the seed into `mixed`: a seeded bijection of 64-bit
 * keys, three Feistel rounds whose round function is murmur3's 32-bit finaliser.
 */
function mixKey(keys: Uint32Array, at: number, seed: Uint32Array): void {
  let l = keys[at]! ^ seed[0]!
  let r = keys[at + 1]! ^ seed[1]!
  let f = r
  f = Math.imul(f ^ (f >>> 16), 0x85ebca6b)
  f = Math.imul(f ^ (f >>> 13), 0xc2b2ae35)
  l ^= f ^ (f >>> 16)
  f = l ^ 0x9e3779b9
  f = Math.imul(f ^ (f >>> 16), 0x85ebca6b)
  f = Math.imul(f ^ (f >>> 13), 0xc2b2ae35)
  r ^= f ^ (f >>> 16)
  f = r ^ 0x7f4a7c15
  f = Math.imul(f ^ (f >>> 16), 0x85ebca6b)
  f = Math.imul(f ^ (f >>> 13), 0xc2b2ae35)
  l ^= f ^ (f >>> 16)
  mixed[0] = l
  mixed[1] = r
}

/**
 * Writes the three slots of the mixed key at keys[at], keys[at + 1] to slots[0..2], and slots 0, 1
 * again to slots[3..4] (so slot (i + k) mod 3 is slots[i + k]); returns its fingerprint. The first
 * slot scales the high half to [0, segmentCountLength); the second and third lie in the next two
 * segments, placed by other bits of the key.
 */
function slotsOf(keys: Uint32Array, at: number, layout: FuseLayout, slots: Uint32Array): number {
  const hi = keys[at]!
  const lo = keys[at + 1]!
  const { segmentLength } = layout
  const mask = segmentLength - 1
  const h0 = Math.floor((hi * layout.segmentCountLength) / 4294967296)
  const h1 = (h0 + segmentLength) ^ (((lo >>> 18) | (hi << 14)) & mask)
  slots[0] = h0
  slots[1] = h1
  slots[2] = (h0 + 2 * segmentLength) ^ (lo & mask)
  slots[3] = h0
  slots[4] = h1
  return (hi ^ lo) & 0xffff
}

const probeSlots = new Uint32Array(5)

/** Whether the key at key[at], key[at + 1] may be in the filter (no false negatives). */
export function fuse16Contains(filter: Fuse16, key: Uint32Array, at: number): boolean {
  const fp = filter.fingerprints
  if (fp.length === 0) return false
  mixKey(key, at, filter.seed)
  const f = slotsOf(mixed, 0, filter.layout, probeSlots)
  return (f ^ fp[probeSlots[0]!]! ^ fp[probeSlots[1]!]! ^ fp[probeSlots[2]!]!) === 0
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
 * A filter of the first `n` keys of `keys` (pairs [hi, lo]), which must be distinct. `attempts` is
 * how many seeds were tried. Throws if no seed of `MAX_ATTEMPTS` works, which distinct keys make
 * vanishingly unlikely.
 */
export function populateFuse16(keys: Uint32Array, n: number): Fuse16 & { attempts: number } {
  const layout = fuseLayout(n)
  const fingerprints = new Uint16Array(layout.arrayLength)
  const seed = new Uint32Array(2)
  if (n === 0) return { layout, seed, fingerprints, attempts: 0 }
  const len = layout.arrayLength
  // Per slot, three words side by side (one cache line per slot visited): the XOR of the high
  // and of the low halves of the mixed keys in the slot, and 4 × their number | the XOR of
  // their slot indices (0, 1, 2), which is the lone key's slot index when one key is left.
  const t2 = new Uint32Array(3 * len)
  const alone = new Uint32Array(len)
  const order = new Uint32Array(2 * n) // mixed keys by segment, then in peeling order
  const peeledAt = new Uint8Array(n) // which of its three slots each peeled key was alone in
  let blockBits = 1
  while (1 << blockBits < layout.segmentCount) blockBits++
  const start = new Uint32Array((1 << blockBits) + 1)
  const rng = new Uint32Array([0x726b2b9d])
  const slots = new Uint32Array(5)

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    seed[0] = nextSeed(rng)
    seed[1] = nextSeed(rng)
    // Order the mixed keys by their first slot's region (a counting sort): nearby slots are
    // touched together, which keeps the next pass within the CPU caches.
    start.fill(0)
    for (let i = 0; i < n; i++) {
      mixKey(keys, 2 * i, seed)
      start[(mixed[0]! >>> (32 - blockBits)) + 1]!++
    }
    for (let b = 1; b < start.length; b++) start[b]! += start[b - 1]!
    for (let i = 0; i < n; i++) {
      mixKey(keys, 2 * i, seed)
      const at = 2 * start[mixed[0]! >>> (32 - blockBits)]!++
      order[at] = mixed[0]!
      order[at + 1] = mixed[1]!
    }

    t2.fill(0)
    for (let i = 0; i < 2 * n; i += 2) {
      slotsOf(order, i, layout, slots)
      for (let k = 0; k < 3; k++) {
        const at = 3 * slots[k]!
        t2[at]! ^= order[i]!
        t2[at + 1]! ^= order[i + 1]!
        t2[at + 2] = (t2[at + 2]! + 4) ^ k
      }
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
      const found = count & 3
      order[2 * peeled] = t2[3 * index]!
      order[2 * peeled + 1] = t2[3 * index + 1]!
      peeledAt[peeled] = found
      slotsOf(t2, 3 * index, layout, slots)
      // Remove the key from its two other slots (slot indices found+1 and found+2, mod 3).
      for (let k = 1; k <= 2; k++) {
        const which = found + k > 2 ? found + k - 3 : found + k
        const other = slots[found + k]!
        const at = 3 * other
        alone[queued] = other
        if (t2[at + 2]! >>> 2 === 2) queued++
        t2[at]! ^= order[2 * peeled]!
        t2[at + 1]! ^= order[2 * peeled + 1]!
        t2[at + 2] = (t2[at + 2]! - 4) ^ which
      }
      peeled++
    }
    if (peeled !== n) continue

    // Assign in reverse peeling order: each key's lone slot is set so its three slots XOR to
    // its fingerprint; slots assigned later never belong to keys assigned earlier.
    for (let i = n - 1; i >= 0; i--) {
      const f = slotsOf(order, 2 * i, layout, slots)
      const found = peeledAt[i]!
      fingerprints[slots[found]!] =
        f ^ fingerprints[slots[found + 1]!]! ^ fingerprints[slots[found + 2]!]!
    }
    return { layout, seed, fingerprints, attempts: attempt }
  }
  throw new Error(`binary fuse filter: no seed of ${MAX_ATTEMPTS} built a filter of ${n} keys`)
}
