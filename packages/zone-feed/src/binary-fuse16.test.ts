import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Fuse16, fuse16Contains, fuseLayout, populateFuse16 } from './binary-fuse16.ts'

function keys(pairs: [number, number][]): Uint32Array {
  return Uint32Array.from(pairs.flat())
}

function contains(filter: Fuse16, hi: number, lo: number): boolean {
  return fuse16Contains(filter, Uint32Array.of(hi, lo), 0)
}

const u32 = fc.integer({ min: 0, max: 0xffff_ffff })

describe('binary fuse16 filter', () => {
  it('contains every key it was built from', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(u32, u32), {
          maxLength: 2000,
          selector: ([hi, lo]) => `${hi}:${lo}`,
        }),
        (pairs) => {
          const filter = populateFuse16(keys(pairs), pairs.length)
          for (const [h, l] of pairs) expect(contains(filter, h, l)).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('retries with another seed when peeling fails, and the filter still holds every key', () => {
    // Small key sets fail to peel with their first seed now and then: find some and check them.
    let retried = 0
    let seed = 12345
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0)
    for (let trial = 0; trial < 5000 && retried < 20; trial++) {
      const n = 2 + (trial % 30)
      const pairs = Array.from({ length: n }, (): [number, number] => [next(), next()])
      const filter = populateFuse16(keys(pairs), n)
      if (filter.attempts === 1) continue
      retried++
      for (const [h, l] of pairs) expect(contains(filter, h, l)).toBe(true)
    }
    expect(retried).toBe(20)
  })

  it('holds nothing when built from no key', () => {
    const filter = populateFuse16(new Uint32Array(0), 0)
    expect(filter.fingerprints.length).toBe(0)
    expect(contains(filter, 0, 0)).toBe(false)
    expect(contains(filter, 1, 2)).toBe(false)
  })

  it('lays out at least one slot per key, in whole segments of a power-of-two length', () => {
    const sizes = [1, 2, 3, 4, 5, 10, 100, 1000, 12_345, 100_000, 1_000_000, 10_000_000]
    for (const n of sizes) {
      const { segmentLength, segmentCount, segmentCountLength, arrayLength } = fuseLayout(n)
      expect(Number.isInteger(Math.log2(segmentLength)) && segmentLength >= 4).toBe(true)
      expect(segmentLength).toBeLessThanOrEqual(1 << 18)
      expect(segmentCount).toBeGreaterThanOrEqual(1)
      expect(segmentCountLength).toBe(segmentCount * segmentLength)
      expect(arrayLength).toBe((segmentCount + 2) * segmentLength)
      expect(arrayLength).toBeGreaterThanOrEqual(n)
    }
    expect(fuseLayout(0).arrayLength).toBe(0)
  })
})
