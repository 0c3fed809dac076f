import { describe, expect, it } from 'vitest'
import { KvLayoutError, decodeNode, decodeZoneMeta, encodeNode, encodeZoneMeta } from './codec.ts'
import type { ZoneMeta } from './types.ts'

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

describe('KV value encoding', () => {
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
    expect(a).toBe(
      '{"v":1,"sets":{"A":{"ttl":60,"rdata":["192.0.2.1","192.0.2.2"],"proxied":true},' +
        '"TXT":{"ttl":60,"rdata":["\\"a\\"","\\"b\\""]}}}'
    )
  })

  it('writes the empty non-terminal value', () => {
    expect(encodeNode({ v: 1, sets: {} })).toBe('{"v":1,"sets":{}}')
  })

  it('round-trips zone metadata and sorts its lists', () => {
    const text = encodeZoneMeta(meta())
    const back = decodeZoneMeta(text)
    expect(back.ns).toEqual(['ns1.example.net', 'ns2.example.net'])
    expect(back.apex.sets.MX?.rdata).toEqual(['10 a.example.com.', '20 b.example.com.'])
    expect(encodeZoneMeta(back)).toBe(text)
    expect(decodeZoneMeta(JSON.parse(text))).toEqual(back)
  })

  it.each([
    ['other version', { v: 2, sets: {} }],
    ['no sets', { v: 1 }],
    ['bad ttl', { v: 1, sets: { A: { ttl: -1, rdata: [] } } }],
    ['bad rdata', { v: 1, sets: { A: { ttl: 1, rdata: [1] } } }],
    ['bad proxied', { v: 1, sets: { A: { ttl: 1, rdata: [], proxied: false } } }],
    ['not JSON', '{'],
    ['null', null],
  ])('rejects a node with %s', (_, value) => {
    expect(() => decodeNode(value)).toThrow(KvLayoutError)
  })

  it.each([
    ['other version', { ...meta(), v: 3 }],
    ['no soa', { ...meta(), soa: undefined }],
    ['bad proxy', { ...meta(), proxy: { ipv4: [] } }],
    ['bad apex', { ...meta(), apex: { v: 1 } }],
  ])('rejects zone metadata with %s', (_, value) => {
    expect(() => decodeZoneMeta(value)).toThrow(KvLayoutError)
  })
})
