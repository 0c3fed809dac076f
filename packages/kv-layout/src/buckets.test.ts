import { describe, expect, it } from 'vitest'
import { bucketNode, decodeBucket, encodeBucket, encodeNode, KvLayoutError } from './codec.ts'
import { BUCKET_LADDER, bucketCountFor, bucketOf, bucketOfHash, nameHash } from './keys.ts'
import { speculativeKeys } from './kv-zone-view.ts'

describe('layout v2 buckets', () => {
  it('hashes names evenly enough over the buckets', () => {
    const counts = new Array(256).fill(0)
    for (let i = 0; i < 256 * 64; i++) counts[bucketOf(`host-${i}.example.com`, 256)]++
    expect(Math.min(...counts)).toBeGreaterThan(30)
    expect(Math.max(...counts)).toBeLessThan(110)
  })

  it('buckets are hash ranges: bucket i of B splits into buckets of 16·B', () => {
    for (const name of ['a.example.com', 'www.example.com', '*.x.example.com']) {
      const h = nameHash(name)
      expect(bucketOfHash(h, 256) >> 4).toBe(bucketOfHash(h, 16))
      expect(bucketOf(name.toUpperCase() + '.', 16)).toBe(bucketOf(name, 16))
    }
  })

  it('picks the bucket count from the zone size along the ladder', () => {
    expect(bucketCountFor(0)).toBe(16)
    expect(bucketCountFor(8192)).toBe(16)
    expect(bucketCountFor(8193)).toBe(256)
    expect(bucketCountFor(131_072)).toBe(256)
    expect(bucketCountFor(131_073)).toBe(4096)
    expect(bucketCountFor(1_000_000)).toBe(4096)
    expect(BUCKET_LADDER).toEqual([16, 256, 4096])
  })

  it('encodes buckets canonically and validates nodes when read', () => {
    const n = encodeNode({ v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.1'] } } })
    const a = encodeBucket([['b.example.com', n], ['a.example.com', n]])
    expect(a).toBe(encodeBucket([['a.example.com', n], ['b.example.com', n]]))
    const b = decodeBucket(a)
    expect(bucketNode(b, 'a.example.com')?.sets.A?.rdata).toEqual(['192.0.2.1'])
    expect(bucketNode(b, 'c.example.com')).toBeNull()
    expect(bucketNode(b, 'constructor')).toBeNull()
    expect(() => decodeBucket('{"v":1,"nodes":{}}')).toThrow(KvLayoutError)
    expect(() => bucketNode(decodeBucket('{"v":2,"nodes":{"x":{"v":9}}}'), 'x')).toThrow(KvLayoutError)
  })

  it('speculates one key per name and ladder step on a cold cache', () => {
    const keys = speculativeKeys('www.example.com', 'example.com')
    expect(keys.length).toBeLessThanOrEqual(2 * BUCKET_LADDER.length)
    expect(keys.every((k) => /^b:example\.com:(16|256|4096):\d+$/.test(k))).toBe(true)
  })
})
