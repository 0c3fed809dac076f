import { describe, expect, it } from 'vitest'
import { parseTtl, parseZoneFile } from './index.ts'

describe('parseTtl', () => {
  it('reads seconds and BIND unit groups in any case', () => {
    expect(parseTtl('3600')).toBe(3600)
    expect(parseTtl('1h30m')).toBe(5400)
    expect(parseTtl('1W2d3H4m5S')).toBe(604800 + 172800 + 10800 + 240 + 5)
    expect(parseTtl('0')).toBe(0)
  })

  it('rejects malformed or out-of-range values', () => {
    for (const bad of ['', '1h30', 'h', '1y', '-5', '1.5', '2147483648', '99999w']) {
      expect(parseTtl(bad)).toBeUndefined()
    }
  })
})

describe('TTL inheritance', () => {
  const ttls = (text: string, defaultTtl?: number) =>
    parseZoneFile(text, { origin: 'example.com', defaultTtl }).map((e) => e.ttl)

  it('uses $TTL for records without a TTL, even after an explicit one', () => {
    expect(ttls('$TTL 2h\na 60 A 1.1.1.1\nb A 1.1.1.1\n')).toEqual([60, 7200])
  })

  it('without $TTL, reuses the last explicit TTL (RFC 1035)', () => {
    const zone = 'a 60 A 1.1.1.1\nb A 1.1.1.1\nc 90 A 1.1.1.1\nd A 1.1.1.1\n'
    expect(ttls(zone)).toEqual([60, 60, 90, 90])
  })

  it('without $TTL or earlier TTL, uses the SOA minimum as $TTL from then on (like BIND)', () => {
    const zone =
      '@ SOA ns host ( 1 2 3 4 1h )\nwww 60 A 1.1.1.1\nmail A 1.1.1.1\n$TTL 5\nx A 1.1.1.1\n'
    expect(ttls(zone)).toEqual([3600, 60, 3600, 5])
  })

  it('falls back to defaultTtl last', () => {
    expect(ttls('a A 1.1.1.1\nb 5 A 1.1.1.1\nc A 1.1.1.1\n', 1)).toEqual([1, 5, 5])
  })
})
