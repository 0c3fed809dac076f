/**
 * The strict KV binding's production model (`KV_MODEL=production`): each wrapper is one location
 * with its own edge cache in front of the local namespace (central storage), with the rules of
 * the virtual-clock model (`test-production-kv.test.ts` of `@edgedns/kv-layout`), case for case.
 */
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { KV_DEFAULT_CACHE_TTL_S, KV_MAX_BULK_KEYS } from '@edgedns/kv-layout/edge-model'
import { applyStrictLimits, strictKv, takeBreaches } from './strict-bindings.ts'

const S = 1000

describe('strict KV under KV_MODEL=production', () => {
  let t: number
  /** Central storage: the local namespace, written directly. */
  let central: KVNamespace
  /** One location (a wrapper with its own edge cache). */
  let here: KVNamespace
  const location = () =>
    strictKv(env.ZONES_KV, { writeIntervalMs: 0, now: () => t, edgeCache: true })
  let p: string
  let n = 0
  beforeEach(() => {
    t = 1_000_000
    central = env.ZONES_KV
    here = location()
    // Keys of their own per test: the namespace outlives a test.
    p = `model-${n++}-`
  })

  it('a write reaches central storage at once: a location that never read the key sees it', async () => {
    await here.put(`${p}k`, 'v1')
    expect(await here.get(`${p}k`, 'text')).toBe('v1')
    expect(await central.get(`${p}k`, 'text')).toBe('v1')
  })

  it('keeps a value read with a cacheTtl for exactly that long, whatever central holds meanwhile', async () => {
    await central.put(`${p}k`, 'v1')
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 45 })).toBe('v1')
    await here.put(`${p}k`, 'v2')
    t += 45 * S - 1
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 45 })).toBe('v1')
    t += 1
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 45 })).toBe('v2')
  })

  it('keeps a miss as long as a value: a key written after a location read it absent stays absent there', async () => {
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBeNull()
    await central.put(`${p}k`, 'v1')
    t += 30 * S - 1
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBeNull()
    t += 1
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBe('v1')
  })

  it('keeps a read without a cacheTtl for the default 60 s', async () => {
    expect(KV_DEFAULT_CACHE_TTL_S).toBe(60)
    await central.put(`${p}k`, 'v1')
    await here.get(`${p}k`)
    await central.put(`${p}k`, 'v2')
    t += 60 * S - 1
    expect(await here.get(`${p}k`)).toBe('v1')
    t += 1
    expect(await here.get(`${p}k`)).toBe('v2')
  })

  it('refuses a cacheTtl below 30 s, as Workers KV does', async () => {
    await expect(here.get(`${p}k`, { type: 'text', cacheTtl: 29 })).rejects.toThrow(/cacheTtl/)
    await expect(here.get([`${p}k`], { type: 'text', cacheTtl: 5 })).rejects.toThrow(/cacheTtl/)
    await expect(here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).resolves.toBeNull()
  })

  it('a hit does not extend the entry: it lapses cacheTtl after the read that fetched it', async () => {
    await central.put(`${p}k`, 'v1')
    await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })
    t += 20 * S
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBe('v1')
    await central.put(`${p}k`, 'v2')
    t += 10 * S
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBe('v2')
  })

  it("the fetching read's cacheTtl decides: a later read asking less still gets the kept value", async () => {
    await central.put(`${p}k`, 'v1')
    await here.get(`${p}k`, { type: 'text', cacheTtl: 120 })
    await central.put(`${p}k`, 'v2')
    t += 100 * S
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBe('v1')
    t += 20 * S
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBe('v2')
  })

  it('each wrapper is a location with its own edge cache', async () => {
    await central.put(`${p}k`, 'v1')
    await here.get(`${p}k`, 'text')
    await central.put(`${p}k`, 'v2')
    expect(await here.get(`${p}k`, 'text')).toBe('v1')
    expect(await location().get(`${p}k`, 'text')).toBe('v2')
  })

  it('a key never read at a location is fetched fresh even while other keys are kept there', async () => {
    await central.put(`${p}a`, 'a1')
    await here.get(`${p}a`, 'text')
    await central.put(`${p}a`, 'a2')
    await central.put(`${p}b`, 'b2')
    expect(await here.get(`${p}b`, 'text')).toBe('b2')
    expect(await here.get(`${p}a`, 'text')).toBe('a1')
  })

  it('a deleted key reads as its kept value until the entry lapses, then as a miss', async () => {
    await central.put(`${p}k`, 'v1')
    await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })
    await here.delete(`${p}k`)
    t += 10 * S
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBe('v1')
    t += 20 * S
    expect(await here.get(`${p}k`, { type: 'text', cacheTtl: 30 })).toBeNull()
  })

  it('a bulk get applies the rules per key: a kept key, a fresh key and a miss in one call', async () => {
    const [a, b, c] = [`${p}a`, `${p}b`, `${p}c`]
    await central.put(a, 'a1')
    await here.get(a, { type: 'text', cacheTtl: 30 })
    t += 10 * S
    await central.put(a, 'a2')
    await central.put(b, 'b1')
    const got = await here.get([a, b, c], { type: 'text', cacheTtl: 30 })
    expect([...got]).toEqual([
      [a, 'a1'],
      [b, 'b1'],
      [c, null],
    ])
    await central.put(b, 'b2')
    await central.put(c, 'c1')
    t += 20 * S
    expect([...(await here.get([a, b, c], 'text'))]).toEqual([
      [a, 'a2'],
      [b, 'b1'],
      [c, null],
    ])
    t += 10 * S
    expect([...(await here.get([b, c], 'text'))]).toEqual([
      [b, 'b2'],
      [c, 'c1'],
    ])
  })

  it('a bulk get reads text or json, at most 100 keys', async () => {
    await central.put(`${p}j`, '{"x":1}')
    expect((await here.get([`${p}j`], { type: 'json' })).get(`${p}j`)).toEqual({ x: 1 })
    await expect(
      (here.get as (k: string[], o: unknown) => Promise<unknown>)([`${p}j`], {
        type: 'arrayBuffer',
      })
    ).rejects.toThrow(/text or json/)
    const many = Array.from({ length: KV_MAX_BULK_KEYS + 1 }, (_, i) => `${p}k${i}`)
    await expect(here.get(many, 'text')).rejects.toThrow(/100/)
    await expect(here.get(many.slice(1), 'text')).resolves.toHaveProperty('size', KV_MAX_BULK_KEYS)
  })

  it('a single get returns text, json, an ArrayBuffer or a stream of the kept value', async () => {
    await central.put(`${p}j`, '{"x":1}')
    expect(await here.get(`${p}j`, 'json')).toEqual({ x: 1 })
    await central.put(`${p}j`, '{"x":2}')
    const buffer = await here.get(`${p}j`, { type: 'arrayBuffer' })
    expect(new TextDecoder().decode(buffer!)).toBe('{"x":1}')
    const stream = await here.get(`${p}j`, 'stream')
    expect(await new Response(stream).text()).toBe('{"x":1}')
  })

  it('keeps bytes read as an ArrayBuffer as they were stored (a binary value survives the edge cache)', async () => {
    const bytes = new Uint8Array([0xff, 0x00, 0x80, 0x01])
    await central.put(`${p}bin`, bytes)
    const first = await here.get(`${p}bin`, 'arrayBuffer')
    expect([...new Uint8Array(first!)]).toEqual([...bytes])
    await central.put(`${p}bin`, new Uint8Array([2]))
    const kept = await here.get(`${p}bin`, 'arrayBuffer')
    expect([...new Uint8Array(kept!)]).toEqual([...bytes])
  })

  it('still enforces the production limits', async () => {
    expect(() => here.get('k'.repeat(513))).toThrow(/KV key size/)
    expect(takeBreaches().map((b) => b.limit)).toEqual(['KV key size'])
  })
})

describe('KV_MODEL=production in the environment', () => {
  it('the API env reads through an edge cache (and turns the strict bindings on by itself)', async () => {
    const key = `model-env-api`
    await env.ZONES_KV.put(key, 'v1')
    const base = { DB: env.DB, ZONES_KV: env.ZONES_KV }
    const modelled = applyStrictLimits({ ...base, KV_MODEL: 'production' })
    const plain = applyStrictLimits({ ...base, STRICT_LIMITS: '1' })
    expect(await modelled.ZONES_KV.get(key, 'text')).toBe('v1')
    await env.ZONES_KV.put(key, 'v2')
    expect(await modelled.ZONES_KV.get(key, 'text')).toBe('v1')
    expect(await plain.ZONES_KV.get(key, 'text')).toBe('v2')
  })
})
