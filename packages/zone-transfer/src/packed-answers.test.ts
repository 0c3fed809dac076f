import { describe, expect, it } from 'vitest'
import { PackedAnswerCache } from './packed-answers.ts'

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill)

/** Keeps `sizes` as one complete answer of `zone` at `version` in `form`. */
function store(
  cache: PackedAnswerCache,
  zone: string,
  version: string,
  sizes: number[],
  form = 'f'
) {
  const keeper = cache.of(zone, version).keep(form)!
  for (const n of sizes) expect(keeper.add(bytes(n))).toBe(true)
  keeper.done()
}

describe('packed answers', () => {
  it('finds a complete answer for the same zone, version and form only', () => {
    const cache = new PackedAnswerCache(1_000)
    store(cache, 'z1', 'v1', [100, 50])
    expect(
      cache
        .of('z1', 'v1')
        .find('f')
        ?.map((m) => m.length)
    ).toEqual([100, 50])
    expect(cache.of('z1', 'v2').find('f')).toBeNull()
    expect(cache.of('z1', 'v1').find('other form')).toBeNull()
    expect(cache.of('z2', 'v1').find('f')).toBeNull()
  })

  it('stores nothing of an answer that was dropped before it completed, and counts none of it', () => {
    const cache = new PackedAnswerCache(1_000)
    const keeper = cache.of('z', 'v').keep('f')!
    keeper.add(bytes(300))
    expect(cache.usedBytes).toBe(300)
    keeper.drop()
    expect(cache.usedBytes).toBe(0)
    expect(cache.of('z', 'v').find('f')).toBeNull()
    // A drop after done lets nothing go.
    store(cache, 'z', 'v', [200])
    expect(cache.usedBytes).toBe(200)
  })

  it("drops a zone's answers of older versions when one of a newer version is stored", () => {
    const cache = new PackedAnswerCache(1_000)
    store(cache, 'z', 'v1', [100], 'a')
    store(cache, 'z', 'v1', [100], 'b')
    store(cache, 'other', 'v1', [100], 'a')
    store(cache, 'z', 'v2', [150], 'a')
    expect(cache.of('z', 'v1').find('b')).toBeNull()
    expect(cache.of('z', 'v2').find('a')).not.toBeNull()
    expect(cache.of('other', 'v1').find('a')).not.toBeNull()
    expect(cache.usedBytes).toBe(250)
  })

  it('makes room by dropping the least recently used answers', () => {
    const cache = new PackedAnswerCache(1_000)
    store(cache, 'a', 'v', [400])
    store(cache, 'b', 'v', [400])
    // `a` is used again, so `b` is the least recently used.
    expect(cache.of('a', 'v').find('f')).not.toBeNull()
    store(cache, 'c', 'v', [400])
    expect(cache.of('b', 'v').find('f')).toBeNull()
    expect(cache.of('a', 'v').find('f')).not.toBeNull()
    expect(cache.of('c', 'v').find('f')).not.toBeNull()
    expect(cache.usedBytes).toBe(800)
  })

  it('keeps no answer larger than the budget, and lets go of what it had taken of it', () => {
    const cache = new PackedAnswerCache(1_000)
    store(cache, 'small', 'v', [100])
    const keeper = cache.of('big', 'v').keep('f')!
    expect(keeper.add(bytes(600))).toBe(true)
    expect(keeper.add(bytes(600))).toBe(false)
    expect(keeper.add(bytes(1))).toBe(false)
    keeper.done()
    expect(cache.of('big', 'v').find('f')).toBeNull()
    // The small answer was dropped to make room for the big one, which then did not fit either.
    expect(cache.usedBytes).toBe(0)
  })

  it('keeps nothing with a budget of 0', () => {
    const cache = new PackedAnswerCache(0)
    expect(cache.of('z', 'v').keep('f')).toBeNull()
  })

  it('clear lets go of stored answers and of answers still being packed', () => {
    const cache = new PackedAnswerCache(1_000)
    store(cache, 'a', 'v', [300])
    const keeper = cache.of('b', 'v').keep('f')!
    keeper.add(bytes(200))
    cache.clear()
    expect(cache.usedBytes).toBe(0)
    expect(cache.of('a', 'v').find('f')).toBeNull()
    // The answer being packed when the cache was cleared is never stored, nor counted.
    expect(keeper.add(bytes(10))).toBe(false)
    keeper.done()
    keeper.drop()
    expect(cache.of('b', 'v').find('f')).toBeNull()
    expect(cache.usedBytes).toBe(0)
    store(cache, 'c', 'v', [100])
    expect(cache.usedBytes).toBe(100)
  })
})
