/**
 * A kept bucket is searched by binary search over its line starts; it must find exactly what a
 * scan of the text finds, names that are prefixes of others and escapes included, and refuse to
 * index a text whose lines are out of order (a scan still finds every name there).
 */
import { describe, expect, it } from 'vitest'
import {
  BUCKET_HEADER,
  EMPTY_BUCKET,
  bucketLineIndex,
  encodeBucketText,
  findInBucket,
  findInIndexedBucket,
} from './bucket-text.ts'
import { encodeNode } from './codec.ts'

const zone = 'idx.test'
const node = (i: number): string =>
  encodeNode({ v: 1, sets: { A: { ttl: 300, rdata: [`192.0.2.${i % 256}`] } } })
const present = [
  '*',
  'a',
  'a-b',
  'a.b',
  'ab',
  'a\\.b',
  'b',
  '*.wild',
  'x\\009y',
  'base-1',
  'base-10',
]
const absent = ['', '-', 'a-', 'aa', 'a.c', 'base-', 'base-100', 'c', 'zz', 'A']
const full = (rel: string) => `${rel}.${zone}`

describe('bucket line index', () => {
  const text = encodeBucketText(
    zone,
    present.map((rel, i) => [full(rel), node(i)] as const)
  )
  const lines = bucketLineIndex(text)!

  it('finds every name a scan finds, and no name a scan does not', () => {
    expect(lines).not.toBeNull()
    expect(lines.length).toBe(present.length)
    for (const rel of [...present, ...absent])
      expect(findInIndexedBucket(text, lines, zone, full(rel))).toBe(
        findInBucket(text, zone, full(rel))
      )
    expect(present.every((rel) => findInIndexedBucket(text, lines, zone, full(rel)) !== null)).toBe(
      true
    )
  })

  it('indexes an empty bucket as no lines', () => {
    const empty = bucketLineIndex(EMPTY_BUCKET)!
    expect(empty.length).toBe(0)
    expect(findInIndexedBucket(EMPTY_BUCKET, empty, zone, full('a'))).toBeNull()
  })

  it('gives no index for lines out of order or repeated', () => {
    expect(bucketLineIndex(`${BUCKET_HEADER}b\t[]\na\t[]\n`)).toBeNull()
    expect(bucketLineIndex(`${BUCKET_HEADER}a\t[]\na\t[]\n`)).toBeNull()
  })
})
