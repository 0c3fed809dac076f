import { describe, expect, it } from 'vitest'
import { bucketEntries, EMPTY_BUCKET } from './bucket-text.ts'
import { KvLayoutError, decodeNode, decodeZoneMeta, encodeNode, encodeZoneMeta } from './codec.ts'
import {
  decodeHead,
  encodeHead,
  headCounter,
  headZoneId,
  isHeadOf,
  headFromMeta,
  headKey,
  headKeys,
  headSlot,
  HEAD_SLOTS,
} from './head.ts'
import { zoneImage } from './image.ts'
import { bucketKey, bucketOf, zoneKey } from './keys.ts'
import type { NodeData, ZoneMeta } from './types.ts'

const meta = (): ZoneMeta => ({
  v: 1,
  id: '0123456789abcdef0123456789abcdef',
  name: 'example.com',
  serial: 7,
  soa: {
    mname: 'ns1.example.com',
    rname: 'hostmaster.example.com',
    refresh: 7200,
    retry: 3600,
    expire: 1209600,
    minimum: 300,
    ttl: 3600,
  },
  ns: ['ns2.example.net', 'ns1.example.net'],
  proxy: { ipv4: ['192.0.2.2', '192.0.2.1'], ipv6: [] },
  apex: { v: 1, sets: { MX: { ttl: 300, rdata: ['20 b.example.com.', '10 a.example.com.'] } } },
})

describe('node encoding', () => {
  it('gives byte-equal values for equal state in any order', () => {
    const a = encodeNode({
      v: 1,
      sets: {
        TXT: { ttl: 60, rdata: ['"b"', '"a"'] },
        A: { ttl: 60, rdata: ['192.0.2.2', '192.0.2.1'], proxied: true },
      },
    })
    const b = encodeNode({
      v: 1,
      sets: {
        A: { proxied: true, rdata: ['192.0.2.1', '192.0.2.2'], ttl: 60 },
        TXT: { rdata: ['"a"', '"b"'], ttl: 60 },
      },
    })
    expect(a).toBe(b)
    expect(a).toBe('[["A",60,["192.0.2.1","192.0.2.2"],1],["TXT",60,["\\"a\\"","\\"b\\""]]]')
  })

  it('writes the empty non-terminal value', () => {
    expect(encodeNode({ v: 1, sets: {} })).toBe('[]')
    expect(decodeNode('[]')).toEqual({ v: 1, sets: {} })
  })

  it('round-trips a node, proxied flag included', () => {
    const node: NodeData = {
      v: 1,
      sets: {
        A: { ttl: 60, rdata: ['192.0.2.1'], proxied: true },
        MX: { ttl: 300, rdata: ['10 a.example.com.'] },
      },
    }
    expect(decodeNode(encodeNode(node))).toEqual(node)
    expect(decodeNode(JSON.parse(encodeNode(node)))).toEqual(node)
  })

  it.each([
    ['an object of layout v1', { v: 1, sets: {} }],
    ['a set that is not an array', '[{"A":1}]'],
    ['a type that is not a string', '[[1,300,[]]]'],
    ['a negative ttl', '[["A",-1,[]]]'],
    ['a ttl that is a string', '[["A","300",[]]]'],
    ['rdata that are not strings', '[["A",300,[1]]]'],
    ['a proxied flag other than 1', '[["A",300,[],0]]'],
    ['a proxied flag true', '[["A",300,[],true]]'],
    ['a fifth element', '[["A",300,[],1,1]]'],
    ['not JSON', '[['],
    ['null', null],
  ])('rejects a node with %s', (_, value) => {
    expect(() => decodeNode(value)).toThrow(KvLayoutError)
  })
})

describe('zone metadata encoding', () => {
  it('round-trips zone metadata and sorts its lists', () => {
    const text = encodeZoneMeta(meta())
    const back = decodeZoneMeta(text)
    expect(back.ns).toEqual(['ns1.example.net', 'ns2.example.net'])
    expect(back.apex.sets.MX?.rdata).toEqual(['10 a.example.com.', '20 b.example.com.'])
    expect(encodeZoneMeta(back)).toBe(text)
    expect(decodeZoneMeta(JSON.parse(text))).toEqual(back)
  })

  it('gives equal bytes for equal layout and subzones, in any order', () => {
    const a = encodeZoneMeta({
      ...meta(),
      layout: { buckets: 256, prev: 16 },
      subzones: ['b.example.com', 'a.example.com'],
    })
    const b = encodeZoneMeta({
      ...meta(),
      subzones: ['a.example.com', 'b.example.com'],
      layout: { prev: 16, buckets: 256 },
    })
    expect(a).toBe(b)
    const back = decodeZoneMeta(a)
    expect(back.layout).toEqual({ buckets: 256, prev: 16 })
    expect(back.subzones).toEqual(['a.example.com', 'b.example.com'])
    expect(encodeZoneMeta(back)).toBe(a)
  })

  it('writes no prev and no subzones when there are none', () => {
    const plain = encodeZoneMeta({ ...meta(), layout: { buckets: 16 } })
    expect(encodeZoneMeta({ ...meta(), layout: { buckets: 16 }, subzones: [] })).toBe(plain)
    expect(plain).not.toContain('prev')
    expect(plain).not.toContain('subzones')
    expect(decodeZoneMeta(plain).layout).toEqual({ buckets: 16 })
  })

  it.each([
    ['other version', { ...meta(), v: 3 }],
    ['no soa', { ...meta(), soa: undefined }],
    ['bad proxy', { ...meta(), proxy: { ipv4: [] } }],
    ['bad apex', { ...meta(), apex: { v: 1 } }],
    ['a bucket count that is not a power of two', { ...meta(), layout: { buckets: 24 } }],
    ['a previous bucket count of zero', { ...meta(), layout: { buckets: 256, prev: 0 } }],
    ['subzones that are not names', { ...meta(), subzones: [1] }],
  ])('rejects zone metadata with %s', (_, value) => {
    expect(() => decodeZoneMeta(value)).toThrow(KvLayoutError)
  })
})

describe('head slots', () => {
  const encodedMeta = encodeZoneMeta({ ...meta(), layout: { buckets: 16 } })
  const www: NodeData = { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.9'] } } }

  it('rotate through HEAD_SLOTS keys', () => {
    expect(HEAD_SLOTS).toBe(8)
    expect(headKey('Example.COM.', 3)).toBe('h:example.com:3')
    expect(headSlot(9)).toBe(1)
    expect(headKeys('example.com')).toEqual(
      Array.from({ length: 8 }, (_, i) => `h:example.com:${i}`)
    )
  })

  it('round-trips counter, sequence, metadata, overlay (deletions included) and bucket history', () => {
    const text = encodeHead({
      n: 12,
      seq: 345,
      meta: encodedMeta,
      overlay: [
        ['gone.example.com', null],
        ['www.example.com', encodeNode(www)],
      ],
      changed: [
        [11, [3, 7]],
        [12, 'all'],
      ],
    })
    expect(text.startsWith(`12 ${meta().id}\n`)).toBe(true)
    expect(headCounter(text)).toBe(12)
    expect(headZoneId(text)).toBe(meta().id)
    expect(isHeadOf(text, meta().id)).toBe(true)
    expect(isHeadOf(text, 'f'.repeat(32))).toBe(false)
    const head = decodeHead(text)
    expect(head.n).toBe(12)
    expect(head.seq).toBe(345)
    expect(encodeZoneMeta(head.meta)).toBe(encodedMeta)
    expect([...head.overlay]).toEqual([
      ['gone.example.com', null],
      ['www.example.com', www],
    ])
    expect(head.changed).toEqual([
      [11, [3, 7]],
      [12, 'all'],
    ])
  })

  it('gives equal bytes for equal input', () => {
    const input = {
      n: 2,
      seq: 5,
      meta: encodedMeta,
      overlay: [['www.example.com', encodeNode(www)] as const],
      changed: [[2, [1]] as const],
    }
    expect(encodeHead(input)).toBe(
      encodeHead({ ...input, overlay: [['www.example.com', encodeNode(structuredClone(www))]] })
    )
  })

  it.each([
    ['no counter line', '{"seq":1}', -1],
    ['an empty counter', '\n{}', -1],
    ['a negative counter', '-1\n{}', -1],
    ['a counter that is not a number', 'x\n{}', -1],
    ['a counter', '7\n{}', 7],
    ['a counter and a zone id', `7 ${'a'.repeat(32)}\n{}`, 7],
    ['a zone id but no counter', ` ${'a'.repeat(32)}\n{}`, -1],
  ])('reads the counter of a value with %s', (_, text, want) => {
    expect(headCounter(text)).toBe(want)
  })

  it("takes a head that names no zone (written before heads did) as the zone's own", () => {
    expect(headZoneId('7\n{}')).toBeNull()
    expect(isHeadOf('7\n{}', 'a'.repeat(32))).toBe(true)
  })

  it.each([
    ['no counter', '{}'],
    ['a body that is not JSON', '3\n{'],
    ['no overlay', `3\n{"seq":1,"meta":${encodedMeta},"changed":[]}`],
    ['bad metadata', '3\n{"seq":1,"meta":{"v":1},"overlay":{},"changed":[]}'],
    [
      'a bad overlay node',
      `3\n{"seq":1,"meta":${encodedMeta},"overlay":{"a.example.com":{"v":1}},"changed":[]}`,
    ],
    [
      'a bad change entry',
      `3\n{"seq":1,"meta":${encodedMeta},"overlay":{},"changed":[[3,"some"]]}`,
    ],
  ])('rejects a head with %s', (_, text) => {
    expect(() => decodeHead(text)).toThrow(KvLayoutError)
  })

  it('a zone without heads is read as head 0 of its metadata', () => {
    const head = headFromMeta(decodeZoneMeta(encodedMeta))
    expect(head).toMatchObject({ n: 0, seq: 0, changed: [] })
    expect(head.overlay.size).toBe(0)
  })
})

describe('zone image', () => {
  const nodes: [string, NodeData][] = [
    ['www.example.com', { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.1'] } } }],
    ['a.b.c.example.com', { v: 1, sets: { TXT: { ttl: 60, rdata: ['"x"'] } } }],
    ['*.example.com', { v: 1, sets: { A: { ttl: 300, rdata: ['192.0.2.2'] } } }],
  ]

  it('writes every bucket of the count (empty ones as the header), the zone key and head 1', () => {
    const image = zoneImage(meta(), nodes)
    const buckets = [...image.keys()].filter((k) => k.startsWith('b:'))
    expect(buckets.sort()).toEqual(
      Array.from({ length: 16 }, (_, i) => bucketKey('example.com', 16, i)).sort()
    )
    expect(image.size).toBe(16 + 2)
    const names = buckets.flatMap((k) =>
      bucketEntries(image.get(k)!, 'example.com').map(([n]) => n)
    )
    expect(names.sort()).toEqual([
      '*.example.com',
      'a.b.c.example.com',
      'b.c.example.com',
      'c.example.com',
      'www.example.com',
    ])
    expect(buckets.filter((k) => image.get(k) === EMPTY_BUCKET).length).toBe(
      16 - new Set(names.map((n) => bucketOf(n, 16))).size
    )
    expect(decodeZoneMeta(image.get(zoneKey('example.com'))).layout).toEqual({ buckets: 16 })
    const head = decodeHead(image.get(headKey('example.com', 1))!)
    expect(head).toMatchObject({ n: 1, changed: [[1, 'all']] })
    expect(head.overlay.size).toBe(0)
  })

  it('adds empty non-terminals above every name, and never the apex', () => {
    const image = zoneImage(meta(), [...nodes, ['example.com', { v: 1, sets: {} }]])
    const at = (name: string) => {
      const text = image.get(bucketKey('example.com', 16, bucketOf(name, 16)))!
      return bucketEntries(text, 'example.com').find(([n]) => n === name)?.[1] ?? null
    }
    expect(at('b.c.example.com')).toBe('[]')
    expect(at('c.example.com')).toBe('[]')
    expect(at('example.com')).toBeNull()
  })

  it('uses the requested bucket count', () => {
    const image = zoneImage(meta(), nodes, { buckets: 256 })
    expect([...image.keys()].filter((k) => k.startsWith('b:example.com:256:')).length).toBe(256)
    expect(decodeZoneMeta(image.get(zoneKey('example.com'))).layout).toEqual({ buckets: 256 })
  })

  it('is byte-equal for equal state given in any order', () => {
    const a = zoneImage(meta(), nodes)
    const b = zoneImage({ ...meta(), ns: [...meta().ns].reverse() }, [...nodes].reverse())
    expect([...b].sort()).toEqual([...a].sort())
  })
})
