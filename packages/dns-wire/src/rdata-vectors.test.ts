import { describe, expect, it } from 'vitest'
import { TYPE_CODES as T } from '@edgedns/dns-facts'
import { encodeRdata } from './rdata/index.ts'
import { hexOf } from './test-oracle.ts'

const h = (s: string): string => s.replace(/\s+/g, '').toLowerCase()
const FOO_EXAMPLE_COM = '03666f6f 076578616d706c65 03636f6d 00'
const FOO_EXAMPLE_ORG = '03666f6f 076578616d706c65 036f7267 00'

/** Hand-checked wire vectors; SVCB/HTTPS ones are RFC 9460 Appendix D. */
const vectors: [string, number, string, string][] = [
  ['HTTPS AliasMode (D.1)', T.HTTPS, '0 foo.example.com.', `0000 ${FOO_EXAMPLE_COM}`],
  ['SVCB ServiceMode, target "." (D.2)', T.SVCB, '1 .', '0001 00'],
  [
    'SVCB port (D.2)',
    T.SVCB,
    '16 foo.example.com. port=53',
    `0010 ${FOO_EXAMPLE_COM} 0003 0002 0035`,
  ],
  [
    'SVCB generic key (D.2)',
    64,
    '1 foo.example.com. key667=hello',
    `0001 ${FOO_EXAMPLE_COM} 029b 0005 68656c6c6f`,
  ],
  [
    'SVCB quoted generic key with escape (D.2)',
    64,
    '1 foo.example.com. key667="hello\\210qoo"',
    `0001 ${FOO_EXAMPLE_COM} 029b 0009 68656c6c6f d2 716f6f`,
  ],
  [
    'SVCB ipv6hint list (D.2)',
    64,
    '1 foo.example.com. ipv6hint="2001:db8::1,2001:db8::53:1"',
    `0001 ${FOO_EXAMPLE_COM} 0006 0020 20010db8000000000000000000000001 20010db8000000000000000000530001`,
  ],
  [
    'SVCB ipv6hint with embedded IPv4 (D.2)',
    64,
    '1 example.com. ipv6hint="2001:db8:122:344::192.0.2.33"',
    '0001 076578616d706c65 03636f6d 00 0006 0010 20010db8012203440000 0000 c0000221',
  ],
  [
    'SVCB params sorted, mandatory (D.2)',
    64,
    '16 foo.example.org. alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1',
    `0010 ${FOO_EXAMPLE_ORG} 0000 0004 0001 0004 0001 0009 02 6832 05 68332d3139 0004 0004 c0000201`,
  ],
  [
    'SVCB alpn with escaped comma and backslash (D.2)',
    64,
    '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"',
    `0010 ${FOO_EXAMPLE_ORG} 0001 000c 08 665c6f6f2c626172 02 6832`,
  ],
  [
    'HTTPS alpn, no-default-alpn, ech',
    65,
    '1 . alpn=h3 no-default-alpn ech=AQI=',
    '0001 00 0001 0003 02 6833 0002 0000 0005 0002 0102',
  ],
  ['HTTPS alpn only', T.HTTPS, '1 . alpn="h2"', '0001 00 0001 0003 02 6832'],
  [
    'URI',
    T.URI,
    '10 1 "https://example.com/"',
    '000a 0001 68747470733a2f2f6578616d706c652e636f6d2f',
  ],
  ['CERT with mnemonics', T.CERT, 'PGP 0 RSASHA256 AQID', '0003 0000 08 010203'],
  ['CERT numeric', T.CERT, '1 12345 13 AQIDBA==', '0001 3039 0d 01020304'],
  ['OPENPGPKEY', T.OPENPGPKEY, 'AQID BAU=', '0102030405'],
  ['SMIMEA', T.SMIMEA, '3 0 1 ABCDEF', '03 00 01 abcdef'],
  ['HINFO with an empty string', T.HINFO, '"RFC8482" ""', '07 5246433834383 2 00'],
  ['generic RFC 3597', 65280, '\\# 3 abcdef', 'abcdef'],
  ['generic empty', 65280, '\\# 0', ''],
]

describe('rdata wire vectors', () => {
  it.each(vectors)('%s', (_, type, text, want) => {
    expect(hexOf(encodeRdata(type, text))).toBe(h(want))
  })
})

/**
 * LOC (RFC 1876 §2-3): latitude/longitude are 2^31 ± thousandths of arc seconds, altitude is
 * centimetres above -100000 m; size/precisions are mantissa·10^exponent centimetres.
 */
describe('LOC', () => {
  const be32 = (n: number): string => n.toString(16).padStart(8, '0')
  const EQ = 2 ** 31

  it('encodes a full position', () => {
    const text = '52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m'
    const lat = EQ + (52 * 3600 + 22 * 60 + 23) * 1000
    const lon = EQ + (4 * 3600 + 53 * 60 + 32) * 1000
    const alt = 10_000_000 - 200
    // size 0 cm → 0x00, hp 1e6 cm → 0x16, vp 1e3 cm → 0x13
    const want = `00 00 16 13 ${be32(lat)} ${be32(lon)} ${be32(alt)}`
    expect(hexOf(encodeRdata(29, text))).toBe(h(want))
    expect(be32(lat)).toBe('8b3cf018') // 2^31 + 188543000 = 2336026648
  })

  it('uses defaults and southern/western hemispheres', () => {
    const text = '42 21 S 71 6 18.5 W 24m'
    const lat = EQ - (42 * 3600 + 21 * 60) * 1000
    const lon = EQ - (71 * 3600 + 6 * 60 + 18.5) * 1000
    const want = `00 12 16 13 ${be32(lat)} ${be32(lon)} ${be32(10_000_000 + 2400)}`
    expect(hexOf(encodeRdata(29, text))).toBe(h(want))
  })

  it.each(['91 N 0 E 0m', '10 X 0 E 0m', '10 N 181 E 0m', '10 N 10 E', '10 60 N 10 E 0m'])(
    'rejects %s',
    (text) => expect(() => encodeRdata(29, text)).toThrow('LOC')
  )
})
