import { describe, expect, it } from 'vitest'
import { TtlLru } from './lru.ts'

describe('TtlLru', () => {
  it('expires entries after the TTL', () => {
    let t = 0
    const lru = new TtlLru<number>(10, 100, () => t)
    lru.set('a', 1)
    t = 99
    expect(lru.get('a')).toEqual({ value: 1 })
    t = 100
    expect(lru.get('a')).toBeUndefined()
  })

  it('evicts the least recently used entry beyond its size', () => {
    const lru = new TtlLru<string | null>(2, 1000)
    lru.set('a', 'A')
    lru.set('b', null)
    lru.get('a')
    lru.set('c', 'C')
    expect(lru.get('b')).toBeUndefined()
    expect(lru.get('a')).toEqual({ value: 'A' })
    expect(lru.size).toBe(2)
  })

  it('caches negative entries distinctly from misses', () => {
    const lru = new TtlLru<string | null>(2, 1000)
    lru.set('x', null)
    expect(lru.get('x')).toEqual({ value: null })
    expect(lru.get('y')).toBeUndefined()
  })
})
