import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ZoneIndex, ZoneIndexFormatError, labelCount } from './zone-index.ts'

/** A seeded generator (mulberry32), so the large tests measure the same names every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SUFFIXES = ['com', 'net', 'org', 'io', 'co.uk', 'example']

/**
 * `count` distinct zone-like names: a random label, a separator and the index in base 36, under a
 * suffix. Names made with different separators never coincide.
 */
function names(count: number, separator: '-' | '_', seed: number): string[] {
  const next = random(seed)
  const out = new Array<string>(count)
  for (let i = 0; i < count; i++) {
    let label = ''
    const length = 2 + Math.floor(next() * 10)
    for (let j = 0; j < length; j++) label += String.fromCharCode(97 + Math.floor(next() * 26))
    const suffix = SUFFIXES[Math.floor(next() * SUFFIXES.length)]!
    out[i] = [label + separator + i.toString(36), suffix].join('.')
  }
  return out
}

const zoneNames = fc.array(
  fc.oneof(
    fc.domain().map((d) => d.toLowerCase()),
    fc.string({ maxLength: 40 })
  ),
  { maxLength: 300 }
)

describe('ZoneIndex', () => {
  it('finds every zone it was built from, before and after encoding (no false negatives)', () => {
    fc.assert(
      fc.property(zoneNames, (zones) => {
        const index = ZoneIndex.build(zones)
        const decoded = ZoneIndex.decode(index.encode())
        for (const zone of zones) {
          expect(index.has(zone)).toBe(true)
          expect(decoded.has(zone)).toBe(true)
        }
        expect(index.size).toBe(new Set(zones).size)
      }),
      { numRuns: 300 }
    )
  })

  it('counts a repeated name once', () => {
    const index = ZoneIndex.build(['example.com', 'example.org', 'example.com', 'example.com'])
    expect(index.size).toBe(2)
    expect(index.has('example.com')).toBe(true)
    expect(index.has('example.org')).toBe(true)
  })

  it('has a false-positive rate below 4e-5 over 1,000,000 non-members of 1,000,000 zones, in under 2.4 bytes a zone', () => {
    const zones = names(1_000_000, '-', 1)
    const index = ZoneIndex.build(zones)
    expect(index.size).toBe(1_000_000)
    for (const zone of zones) if (!index.has(zone)) expect.fail(`false negative: ${zone}`)
    let falsePositives = 0
    for (const outsider of names(1_000_000, '_', 2)) if (index.has(outsider)) falsePositives++
    expect(falsePositives / 1_000_000).toBeLessThan(4e-5)
    expect(index.encode().byteLength / 1_000_000).toBeLessThan(2.4)
    expect(index.byteLength / 1_000_000).toBeLessThan(2.4)
  }, 30_000)

  it('decodes what it encodes to the same index', () => {
    fc.assert(
      fc.property(zoneNames, fc.array(fc.domain(), { maxLength: 50 }), (zones, probes) => {
        const index = ZoneIndex.build(zones)
        const bytes = index.encode()
        const decoded = ZoneIndex.decode(bytes)
        expect(decoded.encode()).toEqual(bytes)
        expect(decoded.size).toBe(index.size)
        for (const probe of probes) expect(decoded.has(probe)).toBe(index.has(probe))
        for (let c = 0; c <= 128; c++) expect(decoded.hasLabelCount(c)).toBe(index.hasLabelCount(c))
      }),
      { numRuns: 200 }
    )
  })

  it('decodes bytes that start at an unaligned offset of their buffer', () => {
    const zones = names(1000, '-', 3)
    const bytes = ZoneIndex.build(zones).encode()
    const shifted = new Uint8Array(bytes.byteLength + 1)
    shifted.set(bytes, 1)
    const decoded = ZoneIndex.decode(shifted.subarray(1))
    for (const zone of zones) expect(decoded.has(zone)).toBe(true)
  })

  describe('refuses bytes that are not a whole, intact index', () => {
    const bytes = ZoneIndex.build(['example.com', 'example.net', 'a.b.example.org']).encode()
    const edited = (at: number, value: number): Uint8Array => {
      const copy = bytes.slice()
      copy[at] = value
      return copy
    }

    it('names what is wrong', () => {
      const refused = (input: Uint8Array, message: RegExp) =>
        expect(() => ZoneIndex.decode(input)).toThrow(message)
      refused(new Uint8Array(0), /zone index: truncated: 0 bytes/)
      refused(new TextEncoder().encode('edgedns-zone-index-1\nexample.com'), /bad magic/)
      refused(edited(0, 0x41), /not a zone index \(bad magic\)/)
      refused(edited(4, 2), /unsupported format version 2 \(this code reads 1\)/)
      refused(edited(5, 9), /unsupported filter kind 9/)
      refused(edited(6, 1), /reserved bytes/)
      refused(edited(12, 200), /corrupt header \(200 zones in 24 slots\)/)
      refused(edited(16, 6), /segment length 6 is not a power of two/)
      refused(edited(20, 0), /corrupt header \(3 zones in 0 slots\)/)
      refused(bytes.subarray(0, bytes.byteLength - 2), /truncated: \d+ of \d+ bytes/)
      refused(new Uint8Array([...bytes, 0, 0, 0, 0]), /4 bytes after the end/)
      refused(edited(bytes.byteLength - 1, bytes[bytes.byteLength - 1]! ^ 1), /checksum mismatch/)
    })

    it('refuses every truncation', () => {
      for (let length = 0; length < bytes.byteLength; length++) {
        expect(() => ZoneIndex.decode(bytes.subarray(0, length))).toThrow(ZoneIndexFormatError)
      }
    })

    it('refuses every single corrupted byte', () => {
      for (let at = 0; at < bytes.byteLength; at++) {
        for (const flip of [0x01, 0x80, 0xff]) {
          expect(() => ZoneIndex.decode(edited(at, bytes[at]! ^ flip))).toThrow(
            ZoneIndexFormatError
          )
        }
      }
    })
  })

  it('is empty when built from no zone: nothing is hosted, and it survives encoding', () => {
    const index = ZoneIndex.build([])
    expect(index.size).toBe(0)
    for (const name of ['', 'com', 'example.com']) expect(index.has(name)).toBe(false)
    for (let c = 0; c <= 127; c++) expect(index.hasLabelCount(c)).toBe(false)
    const bytes = index.encode()
    expect(bytes.byteLength).toBe(48)
    const decoded = ZoneIndex.decode(bytes)
    expect(decoded.size).toBe(0)
    expect(decoded.has('example.com')).toBe(false)
  })

  it('knows which label counts hosted zones have', () => {
    const index = ZoneIndex.decode(
      ZoneIndex.build(['', 'com', 'example.com', 'a.b.example.co.uk']).encode()
    )
    const present = [0, 1, 2, 5]
    for (let c = 0; c <= 127; c++) expect(index.hasLabelCount(c)).toBe(present.includes(c))
    for (const c of [-1, 1.5, 128, 1000, Number.NaN]) expect(index.hasLabelCount(c)).toBe(false)
  })

  it('indexes a name of 127 labels and refuses one of 128', () => {
    const longest = Array.from({ length: 127 }, () => 'a').join('.')
    const index = ZoneIndex.build([longest])
    expect(index.has(longest)).toBe(true)
    expect(index.hasLabelCount(127)).toBe(true)
    expect(() => ZoneIndex.build([`a.${longest}`])).toThrow(RangeError)
  })

  it('counts labels of normalised names', () => {
    expect(labelCount('')).toBe(0)
    expect(labelCount('com')).toBe(1)
    expect(labelCount('www.example.com')).toBe(3)
  })
})
