import { describe, expect, it } from 'vitest'
import { PackedAnswerCache, type PackedAnswerLimits } from './packed-answers.ts'

const KB = 1_000
const bytes = (n: number) => new Uint8Array(n).fill(1)
/** What one stored answer counts beyond its messages' octets: well under a kilobyte here. */
const SLACK = 1_000

const cacheOf = (budgetBytes: number, limits: Partial<PackedAnswerLimits> = {}) =>
  new PackedAnswerCache({ budgetBytes, minBytes: 0, ...limits })

/** Keeps messages of `sizes` as one complete answer of `zone` at `version` (`order`) in `form`. */
function store(
  cache: PackedAnswerCache,
  zone: string,
  version: string,
  sizes: number[],
  form = 'f',
  order = 0
) {
  const keeper = cache.of(zone, version, order).keep(form)!
  for (const n of sizes) expect(keeper.add(bytes(n))).toBe(true)
  keeper.done()
}

const found = (cache: PackedAnswerCache, zone: string, version = 'v', form = 'f') => {
  const lease = cache.of(zone, version).find(form)
  lease?.release()
  return lease?.messages.map((m) => m.length) ?? null
}

describe('packed answers', () => {
  it('says an answer is being packed from its keeper until it is stored or let go, per version and form', () => {
    const cache = cacheOf(1_000 * KB)
    const packing = (version: string, form = 'f') => cache.of('z1', version).packing(form)
    const first = cache.of('z1', 'v1').keep('f')!
    const second = cache.of('z1', 'v1').keep('f')!
    expect([packing('v1'), packing('v2'), packing('v1', 'other form')]).toEqual([
      true,
      false,
      false,
    ])
    first.add(bytes(100))
    first.done()
    expect(packing('v1')).toBe(true) // the second still packs it
    second.drop()
    expect(packing('v1')).toBe(false)
    // Past the budget, a keeper lets go as it adds: no longer packing.
    const small = cacheOf(2 * KB)
    const over = small.of('z1', 'v1').keep('f')!
    expect(over.add(bytes(5 * KB))).toBe(false)
    expect(small.of('z1', 'v1').packing('f')).toBe(false)
  })

  it('finds a complete answer for the same zone, version and form only', () => {
    const cache = cacheOf(1_000 * KB)
    store(cache, 'z1', 'v1', [100, 50])
    expect(found(cache, 'z1', 'v1')).toEqual([100, 50])
    expect(found(cache, 'z1', 'v2')).toBeNull()
    expect(found(cache, 'z1', 'v1', 'other form')).toBeNull()
    expect(found(cache, 'z2', 'v1')).toBeNull()
  })

  it('counts what an answer holds beside its octets, and nothing once it is let go', () => {
    const cache = cacheOf(1_000 * KB)
    const keeper = cache.of('z', 'v').keep('f')!
    keeper.add(bytes(300 * KB))
    expect(cache.usedBytes).toBeGreaterThan(300 * KB)
    expect(cache.usedBytes).toBeLessThan(300 * KB + SLACK)
    keeper.drop()
    expect(cache.usedBytes).toBe(0)
    expect(found(cache, 'z')).toBeNull()
    store(cache, 'z', 'v', [200 * KB])
    keeper.drop()
    expect(cache.usedBytes).toBeGreaterThan(200 * KB)
  })

  it('keeps no answer smaller than minBytes (a small zone is one cheap read)', () => {
    const cache = cacheOf(1_000 * KB, { minBytes: 64 * KB })
    store(cache, 'small', 'v', [10 * KB])
    store(cache, 'large', 'v', [70 * KB])
    expect(found(cache, 'small')).toBeNull()
    expect(found(cache, 'large')).toEqual([70 * KB])
    expect(cache.size).toBe(1)
  })

  it("drops a zone's answers of older versions when one of a newer version is stored", () => {
    const cache = cacheOf(1_000 * KB)
    store(cache, 'z', 'v1', [100], 'a')
    store(cache, 'z', 'v1', [100], 'b')
    store(cache, 'other', 'v1', [100], 'a')
    store(cache, 'z', 'v2', [150], 'a')
    expect(found(cache, 'z', 'v1', 'b')).toBeNull()
    expect(found(cache, 'z', 'v2', 'a')).not.toBeNull()
    expect(found(cache, 'other', 'v1', 'a')).not.toBeNull()
    expect(cache.size).toBe(2)
  })

  it('does not store an answer of an older version over a later one that completed first', () => {
    const cache = cacheOf(1_000 * KB)
    const older = cache.of('z', 'v1', 1).keep('f')!
    older.add(bytes(100))
    store(cache, 'z', 'v2', [100], 'f', 2)
    older.done()
    expect(found(cache, 'z', 'v1')).toBeNull()
    expect(found(cache, 'z', 'v2')).not.toBeNull()
    expect(cache.usedBytes).toBeLessThan(100 + SLACK)
  })

  it('keeps at most formsPerZone forms of a zone, so one client varying its question cannot evict the others', () => {
    const cache = cacheOf(1_000 * KB, { formsPerZone: 2 })
    store(cache, 'other', 'v', [100])
    for (const form of ['A', 'b', 'C', 'd']) store(cache, 'z', 'v', [100], form)
    expect(found(cache, 'z', 'v', 'A')).toBeNull()
    expect(found(cache, 'z', 'v', 'b')).toBeNull()
    expect(found(cache, 'z', 'v', 'C')).not.toBeNull()
    expect(found(cache, 'z', 'v', 'd')).not.toBeNull()
    expect(found(cache, 'other')).not.toBeNull()
  })

  it('makes room by dropping the least recently used answers', () => {
    const cache = cacheOf(1_000 * KB)
    store(cache, 'a', 'v', [400 * KB])
    store(cache, 'b', 'v', [400 * KB])
    // `a` is used again, so `b` is the least recently used.
    expect(found(cache, 'a')).not.toBeNull()
    store(cache, 'c', 'v', [400 * KB])
    expect(found(cache, 'b')).toBeNull()
    expect(found(cache, 'a')).not.toBeNull()
    expect(found(cache, 'c')).not.toBeNull()
    expect(cache.usedBytes).toBeLessThan(800 * KB + 2 * SLACK)
  })

  it('counts an answer dropped while a transfer reads it until that transfer ends', () => {
    const cache = cacheOf(1_000 * KB)
    store(cache, 'a', 'v', [600 * KB])
    const lease = cache.of('a', 'v').find('f')!
    // Room for `b` drops `a` from the cache, but its bytes are still held by the reader.
    const keeper = cache.of('b', 'v').keep('f')!
    expect(keeper.add(bytes(600 * KB))).toBe(false)
    expect(found(cache, 'a')).toBeNull()
    expect(cache.usedBytes).toBeGreaterThanOrEqual(600 * KB)
    lease.release()
    lease.release()
    expect(cache.usedBytes).toBe(0)
    store(cache, 'b', 'v', [600 * KB])
    expect(found(cache, 'b')).not.toBeNull()
  })

  it('keeps no answer larger than the budget', () => {
    const cache = cacheOf(1_000 * KB)
    const keeper = cache.of('big', 'v').keep('f')!
    expect(keeper.add(bytes(600 * KB))).toBe(true)
    expect(keeper.add(bytes(600 * KB))).toBe(false)
    expect(keeper.add(bytes(1))).toBe(false)
    keeper.done()
    expect(found(cache, 'big')).toBeNull()
    expect(cache.usedBytes).toBe(0)
  })

  it('keeps nothing with a budget of 0', () => {
    expect(cacheOf(0).of('z', 'v').keep('f')).toBeNull()
  })

  it('lets go of keepers and readers that never ended after maxAgeMs', () => {
    let now = 0
    const cache = cacheOf(1_000 * KB, { maxAgeMs: 1_000, now: () => now })
    store(cache, 'a', 'v', [300 * KB])
    cache.of('a', 'v').find('f') // a reader that never releases
    cache
      .of('b', 'v')
      .keep('f')!
      .add(bytes(300 * KB)) // a keeper that never ends
    now = 2_000
    // Room is made: the stale holders end, and `a` can be dropped for good.
    store(cache, 'c', 'v', [900 * KB])
    expect(found(cache, 'c')).not.toBeNull()
    expect(cache.usedBytes).toBeLessThan(900 * KB + SLACK)
  })

  it('clear lets go of stored answers and of answers still being packed', () => {
    const cache = cacheOf(1_000 * KB)
    store(cache, 'a', 'v', [300])
    const keeper = cache.of('b', 'v').keep('f')!
    keeper.add(bytes(200))
    cache.clear()
    expect(cache.usedBytes).toBe(0)
    expect(found(cache, 'a')).toBeNull()
    // The answer being packed when the cache was cleared is never stored, nor counted.
    expect(keeper.add(bytes(10))).toBe(false)
    keeper.done()
    keeper.drop()
    expect(found(cache, 'b')).toBeNull()
    expect(cache.usedBytes).toBe(0)
    store(cache, 'c', 'v', [100])
    expect(found(cache, 'c')).not.toBeNull()
  })
})
