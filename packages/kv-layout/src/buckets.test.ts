import { describe, expect, it } from 'vitest'
import {
  BUCKET_HEADER,
  EMPTY_BUCKET,
  bucketEntries,
  encodeBucketText,
  findInBucket,
  isBucketText,
  relativeName,
} from './bucket-text.ts'
import { decodeNode, encodeNode, KvLayoutError } from './codec.ts'
import { BUCKET_LADDER, bucketCountFor, bucketOf, bucketOfHash, nameHash } from './keys.ts'
import { speculativeKeys } from './zone-entry.ts'

const node = (ip: string): string => encodeNode({ v: 1, sets: { A: { ttl: 300, rdata: [ip] } } })

describe('bucket hashing', () => {
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

  it('speculates one key per name and ladder step on a cold cache', () => {
    const keys = speculativeKeys('www.example.com', 'example.com')
    expect(keys.length).toBeLessThanOrEqual(2 * BUCKET_LADDER.length)
    expect(keys.every((k) => /^b:example\.com:(16|256|4096):\d+$/.test(k))).toBe(true)
  })
})

describe('bucket text', () => {
  const zone = 'example.com'
  const entries: [string, string][] = [
    ['www.example.com', node('192.0.2.1')],
    ['a.example.com', node('192.0.2.2')],
    ['ab.example.com', node('192.0.2.3')],
    ['x.a.example.com', node('192.0.2.4')],
    ['a\\.b.example.com', node('192.0.2.5')],
    ['*.example.com', node('192.0.2.6')],
    ['b.example.com', encodeNode({ v: 1, sets: {} })],
  ]

  it('is a header and one sorted line per name, relative to the zone, whatever the input order', () => {
    const text = encodeBucketText(zone, entries)
    expect(text).toBe(encodeBucketText(zone, [...entries].reverse()))
    expect(text.startsWith(BUCKET_HEADER)).toBe(true)
    const lines = text.slice(BUCKET_HEADER.length).split('\n')
    expect(lines.pop()).toBe('') // every line ends with a newline
    expect(lines.map((l) => l.split('\t')[0])).toEqual(['*', 'a', 'a\\.b', 'ab', 'b', 'www', 'x.a'])
    expect(lines[0]).toBe(`*\t${node('192.0.2.6')}`)
  })

  it('round-trips every (name, node) pair', () => {
    const text = encodeBucketText(zone, entries)
    const back = bucketEntries(text, zone)
    expect(new Map(back)).toEqual(new Map(entries))
    expect(back.map(([n]) => n)).toEqual(
      [...back.map(([n]) => n)].sort((a, b) =>
        relativeName(a, zone) < relativeName(b, zone) ? -1 : 1
      )
    )
    expect(encodeBucketText(zone, back)).toBe(text)
  })

  it('finds a name, never one it is a prefix or suffix of', () => {
    const text = encodeBucketText(zone, entries)
    expect(findInBucket(text, zone, 'a.example.com')).toBe(node('192.0.2.2'))
    expect(findInBucket(text, zone, 'ab.example.com')).toBe(node('192.0.2.3'))
    expect(findInBucket(text, zone, 'x.a.example.com')).toBe(node('192.0.2.4'))
    // only longer names exist that start or end with these
    const partial = encodeBucketText(zone, [
      ['ab.example.com', node('192.0.2.3')],
      ['x.a.example.com', node('192.0.2.4')],
    ])
    expect(findInBucket(partial, zone, 'a.example.com')).toBeNull()
    expect(findInBucket(partial, zone, 'x.example.com')).toBeNull()
  })

  it('finds the first and the last line of a bucket', () => {
    const text = encodeBucketText(zone, entries)
    expect(findInBucket(text, zone, '*.example.com')).toBe(node('192.0.2.6'))
    expect(findInBucket(text, zone, 'x.a.example.com')).toBe(node('192.0.2.4'))
  })

  it('finds an escaped name and the wildcard by their exact presentation', () => {
    const text = encodeBucketText(zone, entries)
    expect(findInBucket(text, zone, 'a\\.b.example.com')).toBe(node('192.0.2.5'))
    expect(findInBucket(text, zone, '*.example.com')).toBe(node('192.0.2.6'))
    const withoutWildcard = encodeBucketText(
      zone,
      entries.filter(([n]) => n !== '*.example.com')
    )
    expect(findInBucket(withoutWildcard, zone, '*.example.com')).toBeNull()
  })

  it('finds an empty non-terminal as an empty node, distinct from an absent name', () => {
    const text = encodeBucketText(zone, entries)
    expect(decodeNode(findInBucket(text, zone, 'b.example.com'))).toEqual({ v: 1, sets: {} })
    expect(findInBucket(text, zone, 'nope.example.com')).toBeNull()
    expect(findInBucket(EMPTY_BUCKET, zone, 'www.example.com')).toBeNull()
  })

  it('stores names of the root zone whole', () => {
    const text = encodeBucketText('', [['com', node('192.0.2.9')]])
    expect(text).toBe(`${BUCKET_HEADER}com\t${node('192.0.2.9')}\n`)
    expect(findInBucket(text, '', 'com')).toBe(node('192.0.2.9'))
    expect(bucketEntries(text, '')).toEqual([['com', node('192.0.2.9')]])
  })

  it('an empty bucket is the header alone', () => {
    expect(EMPTY_BUCKET).toBe('#3\n')
    expect(encodeBucketText(zone, [])).toBe(EMPTY_BUCKET)
    expect(bucketEntries(EMPTY_BUCKET, zone)).toEqual([])
    expect(isBucketText(EMPTY_BUCKET)).toBe(true)
  })

  it.each([
    ['JSON of an older layout', '{"v":2,"nodes":{}}'],
    ['another header', '#2\nwww\t[]\n'],
    ['nothing', ''],
  ])('refuses a value that is not bucket text: %s', (_, value) => {
    expect(isBucketText(value)).toBe(false)
    expect(() => findInBucket(value, zone, 'www.example.com')).toThrow(KvLayoutError)
    expect(() => bucketEntries(value, zone)).toThrow(KvLayoutError)
  })

  it('refuses a line without a tab when listing a bucket', () => {
    expect(() => bucketEntries(`${BUCKET_HEADER}www[]\n`, zone)).toThrow(KvLayoutError)
  })
})
