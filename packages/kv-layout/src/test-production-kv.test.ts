/**
 * The production KV model itself: each consistency rule, on the virtual clock.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import {
  KV_DEFAULT_CACHE_TTL_S,
  KV_MAX_BULK_KEYS,
  KV_MIN_CACHE_TTL_S,
  ProductionKvModel,
  type KvLocation,
} from './test-production-kv.ts'

const S = 1000

describe('production KV model', () => {
  let t: number
  let kv: ProductionKvModel
  let here: KvLocation
  beforeEach(() => {
    t = 0
    kv = new ProductionKvModel({ now: () => t })
    here = kv.location('here')
  })

  it('a write reaches central storage at once: a location that never read the key sees it', async () => {
    kv.put('k', 'v1')
    expect(await here.get('k', 'text')).toBe('v1')
    expect(kv.centralValue('k')).toBe('v1')
  })

  it('keeps a value read with a cacheTtl for exactly that long, whatever central holds meanwhile', async () => {
    kv.put('k', 'v1')
    expect(await here.get('k', { type: 'text', cacheTtl: 45 })).toBe('v1')
    kv.put('k', 'v2')
    t = 45 * S - 1
    expect(await here.get('k', { type: 'text', cacheTtl: 45 })).toBe('v1')
    t = 45 * S
    expect(await here.get('k', { type: 'text', cacheTtl: 45 })).toBe('v2')
  })

  it('keeps a miss as long as a value: a key written after a location read it absent stays absent there', async () => {
    expect(await here.get('k', { type: 'text', cacheTtl: KV_MIN_CACHE_TTL_S })).toBeNull()
    kv.put('k', 'v1')
    t = KV_MIN_CACHE_TTL_S * S - 1
    expect(await here.get('k', { type: 'text', cacheTtl: KV_MIN_CACHE_TTL_S })).toBeNull()
    t = KV_MIN_CACHE_TTL_S * S
    expect(await here.get('k', { type: 'text', cacheTtl: KV_MIN_CACHE_TTL_S })).toBe('v1')
  })

  it('keeps a read without a cacheTtl for the default 60 s', async () => {
    expect(KV_DEFAULT_CACHE_TTL_S).toBe(60)
    kv.put('k', 'v1')
    await here.get('k')
    kv.put('k', 'v2')
    t = KV_DEFAULT_CACHE_TTL_S * S - 1
    expect(await here.get('k')).toBe('v1')
    t = KV_DEFAULT_CACHE_TTL_S * S
    expect(await here.get('k')).toBe('v2')
  })

  it('refuses a cacheTtl below 30 s, as Workers KV does', async () => {
    expect(KV_MIN_CACHE_TTL_S).toBe(30)
    await expect(here.get('k', { type: 'text', cacheTtl: 29 })).rejects.toThrow(/cacheTtl/)
    await expect(here.get(['k'], { type: 'text', cacheTtl: 5 })).rejects.toThrow(/cacheTtl/)
    await expect(here.get('k', { type: 'text', cacheTtl: 30 })).resolves.toBeNull()
  })

  it('a hit does not extend the entry: it lapses cacheTtl after the read that fetched it', async () => {
    kv.put('k', 'v1')
    await here.get('k', { type: 'text', cacheTtl: 30 })
    t = 20 * S
    expect(await here.get('k', { type: 'text', cacheTtl: 30 })).toBe('v1')
    kv.put('k', 'v2')
    t = 30 * S
    expect(await here.get('k', { type: 'text', cacheTtl: 30 })).toBe('v2')
  })

  it("the fetching read's cacheTtl decides: a later read asking less still gets the kept value", async () => {
    kv.put('k', 'v1')
    await here.get('k', { type: 'text', cacheTtl: 120 })
    kv.put('k', 'v2')
    t = 100 * S
    expect(await here.get('k', { type: 'text', cacheTtl: 30 })).toBe('v1')
    t = 120 * S
    expect(await here.get('k', { type: 'text', cacheTtl: 30 })).toBe('v2')
  })

  it('each location has its own edge cache', async () => {
    kv.put('k', 'v1')
    await here.get('k', 'text')
    kv.put('k', 'v2')
    expect(await here.get('k', 'text')).toBe('v1')
    expect(await kv.location('there').get('k', 'text')).toBe('v2')
    expect(kv.location('here')).toBe(here)
  })

  it('a key never read at a location is fetched fresh even while other keys are kept there', async () => {
    kv.put('a', 'a1')
    await here.get('a', 'text')
    kv.put('a', 'a2')
    kv.put('b', 'b2')
    expect(await here.get('b', 'text')).toBe('b2')
    expect(await here.get('a', 'text')).toBe('a1')
  })

  it('a deleted key reads as its kept value until the entry lapses, then as a miss', async () => {
    kv.put('k', 'v1')
    await here.get('k', { type: 'text', cacheTtl: 30 })
    kv.delete('k')
    t = 10 * S
    expect(await here.get('k', { type: 'text', cacheTtl: 30 })).toBe('v1')
    t = 30 * S
    expect(await here.get('k', { type: 'text', cacheTtl: 30 })).toBeNull()
  })

  it('a bulk get applies the rules per key: a kept key, a fresh key and a miss in one call', async () => {
    kv.put('a', 'a1')
    await here.get('a', { type: 'text', cacheTtl: 30 })
    t = 10 * S
    kv.put('a', 'a2')
    kv.put('b', 'b1')
    const got = await here.get(['a', 'b', 'c'], { type: 'text', cacheTtl: 30 })
    expect([...got]).toEqual([
      ['a', 'a1'],
      ['b', 'b1'],
      ['c', null],
    ])
    // b and the miss of c were kept by that call (from t = 10 s): a changes first
    kv.put('b', 'b2')
    kv.put('c', 'c1')
    t = 30 * S
    expect([...(await here.get(['a', 'b', 'c'], 'text'))]).toEqual([
      ['a', 'a2'],
      ['b', 'b1'],
      ['c', null],
    ])
    t = 40 * S
    expect([...(await here.get(['b', 'c'], 'text'))]).toEqual([
      ['b', 'b2'],
      ['c', 'c1'],
    ])
  })

  it('a bulk get reads text or json, at most 100 keys', async () => {
    kv.put('j', '{"x":1}')
    expect((await here.get(['j'], { type: 'json' })).get('j')).toEqual({ x: 1 })
    await expect(here.get(['j'], { type: 'arrayBuffer' })).rejects.toThrow(/text or json/)
    const many = Array.from({ length: KV_MAX_BULK_KEYS + 1 }, (_, i) => `k${i}`)
    await expect(here.get(many, 'text')).rejects.toThrow(/100/)
    await expect(here.get(many.slice(1), 'text')).resolves.toHaveProperty('size', KV_MAX_BULK_KEYS)
  })

  it('a single get returns text, json, an ArrayBuffer or a stream of the kept value', async () => {
    kv.put('j', '{"x":1}')
    expect(await here.get('j', 'json')).toEqual({ x: 1 })
    kv.put('j', '{"x":2}')
    const buffer = (await here.get('j', { type: 'arrayBuffer' })) as ArrayBuffer
    expect(new TextDecoder().decode(buffer)).toBe('{"x":1}')
    const stream = (await here.get('j', 'stream')) as ReadableStream<Uint8Array>
    expect(await new Response(stream).text()).toBe('{"x":1}')
  })

  it('counts calls, keys, edge hits and central reads per location', async () => {
    kv.put('a', 'a1')
    await here.get(['a', 'b'], 'text')
    await here.get('a', 'text')
    expect(here.stats).toEqual({ calls: 2, keys: 3, edgeHits: 1, centralReads: 2 })
    expect(here.cached('b')).toEqual({ value: null, until: KV_DEFAULT_CACHE_TTL_S * S })
    expect(kv.location('there').stats.calls).toBe(0)
  })
})
