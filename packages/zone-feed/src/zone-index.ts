/**
 * @module The hosted-zone index an isolate holds: which zone names are hosted, so a name under no
 * hosted zone costs no KV read. Compiled by the feed primary, stored in KV under `indexKey(v)`,
 * loaded by isolates; entries of the feed after its sequence are its deltas (kept beside it by the
 * isolate, see feed-client).
 *
 * The index is a binary fuse filter with 16-bit fingerprints (binary-fuse16.ts) over a 64-bit hash
 * of each normalised zone name, plus the set of label counts that hosted zones have. `has` has no
 * false negatives and false positives at a rate of about 2^-16 per probe: callers treat a positive
 * as "read the zone", never as "the zone exists".
 *
 * Encoding (little-endian), format version 1:
 *
 * | offset | bytes | field |
 * |---:|---:|---|
 * | 0 | 4 | magic `EZIX` |
 * | 4 | 1 | format version (1) |
 * | 5 | 1 | kind (1 = binary fuse, 16-bit fingerprints) |
 * | 6 | 2 | reserved, 0 |
 * | 8 | 4 | checksum (murmur3-style, 32-bit) of every byte from offset 12 to the end |
 * | 12 | 4 | zones (distinct names) |
 * | 16 | 4 | segment length |
 * | 20 | 4 | segment count |
 * | 24 | 8 | seed (two 32-bit halves) |
 * | 32 | 16 | label counts present: bit c set when some zone has c labels (0..127) |
 * | 48 | 2 × array length | fingerprints |
 *
 * Decoding checks every field and the exact length before the checksum.
 */

import {
  type Fuse16,
  MAX_SEGMENT_LENGTH,
  fuse16Contains,
  layoutOf,
  populateFuse16,
} from './binary-fuse16.ts'

const MAGIC = 0x5849_5a45 // 'EZIX' read as a little-endian u32
const FORMAT_VERSION = 1
const KIND_FUSE16 = 1
const HEADER_BYTES = 48
/** A DNS name of at most 255 octets has at most 127 labels. */
const MAX_LABELS = 127

/** The bytes given to `ZoneIndex.decode` are not a well-formed index of a known format. */
export class ZoneIndexFormatError extends Error {
  override name = 'ZoneIndexFormatError'
}

export class ZoneIndex {
  readonly #filter: Fuse16
  readonly #size: number
  readonly #labelCounts: Uint32Array // a 128-bit set

  private constructor(filter: Fuse16, size: number, labelCounts: Uint32Array) {
    // The fingerprints and the checksum are read and written through typed arrays, which use
    // the platform's byte order; Workers and Node run on little-endian CPUs.
    if (!LITTLE_ENDIAN) throw new Error('zone index: needs a little-endian platform')
    this.#filter = filter
    this.#size = size
    this.#labelCounts = labelCounts
  }

  /**
   * An index of these normalised zone names (lowercase, no trailing dot; '' is the root).
   * Duplicates are counted once. Throws a RangeError for a name of more than 127 labels.
   */
  static build(zones: Iterable<string>): ZoneIndex {
    let keys: Uint32Array<ArrayBuffer> = new Uint32Array(2048) // name hashes, pairs [hi, lo]
    let n = 0
    const labelCounts = new Uint32Array(4)
    for (const zone of zones) {
      const labels = labelCount(zone)
      if (labels > MAX_LABELS) {
        throw new RangeError(
          `zone index: ${JSON.stringify(zone.slice(0, 40))}… has ${labels} labels`
        )
      }
      labelCounts[labels >>> 5]! |= 1 << (labels & 31)
      if (2 * n === keys.length) keys = grow(keys)
      hashName(zone)
      keys[2 * n] = hashed[0]!
      keys[2 * n + 1] = hashed[1]!
      n++
    }
    const size = removeDuplicates(keys, n)
    // The same three fields as a decoded filter, so `has` sees one object shape.
    const { layout, seed, fingerprints } = populateFuse16(keys, size)
    return new ZoneIndex({ layout, seed, fingerprints }, size, labelCounts)
  }

  /**
   * The index these bytes encode; throws a ZoneIndexFormatError naming what is wrong. The index
   * keeps a view of `bytes` (no copy), so they must not change afterwards.
   */
  static decode(bytes: Uint8Array): ZoneIndex {
    const fail = (why: string): never => {
      throw new ZoneIndexFormatError(`zone index: ${why}`)
    }
    // Typed views need aligned offsets; bytes from KV are aligned, a slice of a buffer may not be.
    if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice()
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (bytes.byteLength >= 4 && view.getUint32(0, true) !== MAGIC) {
      fail('not a zone index (bad magic)')
    }
    if (bytes.byteLength < HEADER_BYTES) {
      fail(`truncated: ${bytes.byteLength} bytes, shorter than the ${HEADER_BYTES}-byte header`)
    }
    const version = view.getUint8(4)
    if (version !== FORMAT_VERSION) {
      fail(`unsupported format version ${version} (this code reads ${FORMAT_VERSION})`)
    }
    const kind = view.getUint8(5)
    if (kind !== KIND_FUSE16) fail(`unsupported filter kind ${kind}`)
    if (view.getUint16(6, true) !== 0) fail('corrupt header (reserved bytes are not 0)')
    const size = view.getUint32(12, true)
    const segmentLength = view.getUint32(16, true)
    const segmentCount = view.getUint32(20, true)
    if (
      segmentLength < 4 ||
      segmentLength > MAX_SEGMENT_LENGTH ||
      (segmentLength & (segmentLength - 1)) !== 0
    ) {
      fail(`corrupt header (segment length ${segmentLength} is not a power of two from 4 to 2^18)`)
    }
    const layout = layoutOf(segmentLength, segmentCount)
    if ((size === 0) !== (segmentCount === 0) || size > layout.arrayLength) {
      fail(`corrupt header (${size} zones in ${layout.arrayLength} slots)`)
    }
    const expected = HEADER_BYTES + 2 * layout.arrayLength
    if (bytes.byteLength < expected) fail(`truncated: ${bytes.byteLength} of ${expected} bytes`)
    if (bytes.byteLength > expected) fail(`${bytes.byteLength - expected} bytes after the end`)
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + 12, (expected - 12) / 4)
    if (checksum(words) !== view.getUint32(8, true)) fail('checksum mismatch (corrupt bytes)')
    const labelCounts = new Uint32Array(4)
    for (let i = 0; i < 4; i++) labelCounts[i] = view.getUint32(32 + 4 * i, true)
    const fingerprints = new Uint16Array(
      bytes.buffer,
      bytes.byteOffset + HEADER_BYTES,
      layout.arrayLength
    )
    const seed = Uint32Array.of(view.getUint32(24, true), view.getUint32(28, true))
    const filter = { layout, seed, fingerprints }
    return new ZoneIndex(filter, size, labelCounts)
  }

  encode(): Uint8Array {
    const { layout, seed, fingerprints } = this.#filter
    const bytes = new Uint8Array(HEADER_BYTES + 2 * layout.arrayLength)
    const view = new DataView(bytes.buffer)
    view.setUint32(0, MAGIC, true)
    view.setUint8(4, FORMAT_VERSION)
    view.setUint8(5, KIND_FUSE16)
    view.setUint32(12, this.#size, true)
    view.setUint32(16, layout.segmentLength, true)
    view.setUint32(20, layout.segmentCount, true)
    view.setUint32(24, seed[0]!, true)
    view.setUint32(28, seed[1]!, true)
    for (let i = 0; i < 4; i++) view.setUint32(32 + 4 * i, this.#labelCounts[i]!, true)
    new Uint16Array(bytes.buffer, HEADER_BYTES, layout.arrayLength).set(fingerprints)
    const words = new Uint32Array(bytes.buffer, 12, (bytes.byteLength - 12) / 4)
    view.setUint32(8, checksum(words), true)
    return bytes
  }

  /** Whether `zone` (normalised) may be hosted: no false negatives, rare false positives. */
  has(zone: string): boolean {
    if (this.#size === 0) return false
    hashName(zone)
    return fuse16Contains(this.#filter, hashed, 0)
  }

  /** Whether some indexed zone has this many labels (suffixes of other lengths need no probe). */
  hasLabelCount(count: number): boolean {
    if (!Number.isInteger(count) || count < 0 || count > MAX_LABELS) return false
    return (this.#labelCounts[count >>> 5]! & (1 << (count & 31))) !== 0
  }

  /** Distinct zone names indexed. */
  get size(): number {
    return this.#size
  }

  /** Bytes of the filter held in memory (what `encode` writes, less the 48-byte header). */
  get byteLength(): number {
    return this.#filter.fingerprints.byteLength
  }
}

/** Labels of a normalised name ('' = the root, 0 labels). */
export function labelCount(name: string): number {
  if (name === '') return 0
  let n = 1
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) === 46) n++
  return n
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** The hash of the last `hashName` call, [high, low]: two outputs without allocating (see
 * binary-fuse16.ts on why not module variables). */
const hashed = new Uint32Array(2)

function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/**
 * The 64-bit hash of a name's UTF-16 code units, two at a time, in two multiply-rotate lanes of
 * 32 bits with different constants, then a Feistel-style avalanche across both lanes (a
 * bijection, so distinct lane states never collide).
 */
function hashName(name: string): void {
  const n = name.length
  let a = 0x243f6a88 ^ n
  let b = 0x85a308d3 ^ Math.imul(n, 0x9e3779b1)
  let i = 0
  for (; i + 1 < n; i += 2) {
    const w = name.charCodeAt(i) | (name.charCodeAt(i + 1) << 16)
    a = Math.imul(a ^ w, 0xcc9e2d51)
    a = (a << 15) | (a >>> 17)
    b = Math.imul(b ^ w, 0x1b873593)
    b = (b << 13) | (b >>> 19)
  }
  if (i < n) {
    const w = name.charCodeAt(i)
    a = Math.imul(a ^ w, 0xcc9e2d51)
    a = (a << 15) | (a >>> 17)
    b = Math.imul(b ^ w, 0x1b873593)
    b = (b << 13) | (b >>> 19)
  }
  a = fmix32(a)
  b = fmix32(b ^ a)
  a = fmix32(a ^ b)
  hashed[0] = a
  hashed[1] = b
}

/** The 64-bit hash the index keys a zone name by, as [high, low] unsigned 32-bit halves. */
export function zoneNameHash(name: string): [number, number] {
  hashName(name)
  return [hashed[0]!, hashed[1]!]
}

function grow(a: Uint32Array): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(a.length * 2)
  b.set(a)
  return b
}

/**
 * Compacts the first `n` keys (pairs [hi, lo]) to the distinct ones (first occurrences, in order)
 * and returns how many there are: an open-addressing table of key positions, at most half full.
 */
function removeDuplicates(keys: Uint32Array, n: number): number {
  if (n < 2) return n
  let bits = 1
  while (1 << bits < 2 * n) bits++
  const mask = (1 << bits) - 1
  const table = new Uint32Array(1 << bits) // position + 1; 0 = empty
  let kept = 0
  for (let i = 0; i < 2 * n; i += 2) {
    let s = keys[i + 1]! & mask
    let duplicate = false
    for (;;) {
      const at = 2 * (table[s]! - 1)
      if (at < 0) break
      if (keys[at] === keys[i] && keys[at + 1] === keys[i + 1]) {
        duplicate = true
        break
      }
      s = (s + 1) & mask
    }
    if (duplicate) continue
    keys[2 * kept] = keys[i]!
    keys[2 * kept + 1] = keys[i + 1]!
    table[s] = ++kept
  }
  return kept
}

/** murmur3's 32-bit block function over whole words, with the word count and its finaliser. */
function checksum(words: Uint32Array): number {
  let h = 0x2545f491
  for (let i = 0; i < words.length; i++) {
    let k = Math.imul(words[i]!, 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    h ^= Math.imul(k, 0x1b873593)
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  return fmix32(h ^ words.length) >>> 0
}
