import { describe, expect, it } from 'vitest'
import { TYPE_CODES as T } from '@edgedns/dns-facts'
import { roundTrip } from './test-oracle.ts'

const buf = (hex: string): Buffer => Buffer.from(hex, 'hex')

/** Types dns-packet decodes structurally: our encoding must decode back to the same values. */
const cases: [string, number, string, unknown][] = [
  ['A', T.A, '192.0.2.1', '192.0.2.1'],
  ['A with zero and 255 octets', T.A, '0.255.10.0', '0.255.10.0'],
  ['AAAA', T.AAAA, '2001:db8::1', '2001:db8::1'],
  ['AAAA with embedded IPv4', T.AAAA, '::ffff:192.0.2.1', '::ffff:c000:201'],
  ['AAAA full form', T.AAAA, '2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
  ['CNAME', T.CNAME, 'target.example.net.', 'target.example.net'],
  ['NS', T.NS, 'ns1.example.com.', 'ns1.example.com'],
  ['PTR', T.PTR, 'host.example.com.', 'host.example.com'],
  ['DNAME', T.DNAME, 'example.net.', 'example.net'],
  ['MX', T.MX, '10 mx.example.com.', { preference: 10, exchange: 'mx.example.com' }],
  ['MX null', T.MX, '0 .', { preference: 0, exchange: '.' }],
  ['TXT', T.TXT, '"v=spf1 -all"', [buf('763d73706631202d616c6c')]],
  ['TXT several strings', T.TXT, '"a b" c ""', [buf('612062'), buf('63'), buf('')]],
  ['TXT escapes', T.TXT, '"say \\"hi\\" \\059\\\\"', [Buffer.from('say "hi" ;\\')]],
  ['TXT UTF-8', T.TXT, '"héllo"', [Buffer.from('héllo')]],
  ['SPF (raw to dns-packet)', T.SPF, '"v=spf1 -all"', buf('0b763d73706631202d616c6c')],
  [
    'SRV',
    33,
    '10 5 5060 sip.example.com.',
    { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
  ],
  [
    'CAA',
    257,
    '0 issue "letsencrypt.org"',
    { flags: 0, tag: 'issue', value: 'letsencrypt.org', issuerCritical: false },
  ],
  [
    'CAA critical',
    257,
    '128 iodef "mailto:a@example.com"',
    { flags: 128, tag: 'iodef', value: 'mailto:a@example.com', issuerCritical: true },
  ],
  ['DNSKEY', T.DNSKEY, '257 3 13 AQID BAU=', { flags: 257, algorithm: 13, key: buf('0102030405') }],
  ['CDNSKEY', T.CDNSKEY, '256 3 8 AQID', undefined],
  [
    'DS',
    43,
    '12345 13 2 ABCDEF 0123',
    { keyTag: 12345, algorithm: 13, digestType: 2, digest: buf('abcdef0123') },
  ],
  [
    'NAPTR',
    35,
    '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
    {
      order: 100,
      preference: 10,
      flags: 'S',
      services: 'SIP+D2U',
      regexp: '',
      replacement: '_sip._udp.example.com',
    },
  ],
  [
    'TLSA',
    52,
    '3 1 1 ABCDEF',
    { usage: 3, selector: 1, matchingType: 1, certificate: buf('abcdef') },
  ],
  ['SSHFP', T.SSHFP, '4 2 ABCDEF01', { algorithm: 4, hash: 2, fingerprint: 'ABCDEF01' }],
  [
    'SOA',
    6,
    'ns1.example.com. hostmaster.example.com. 2024010101 7200 3600 1209600 300',
    {
      mname: 'ns1.example.com',
      rname: 'hostmaster.example.com',
      serial: 2024010101,
      refresh: 7200,
      retry: 3600,
      expire: 1209600,
      minimum: 300,
    },
  ],
  ['HINFO', T.HINFO, '"RFC8482" "x"', { cpu: 'RFC8482', os: 'x' }],
]

describe('rdata encodes to wire that dns-packet decodes back', () => {
  it.each(cases.filter((c) => c[3] !== undefined))('%s', (_, type, text, want) => {
    expect(roundTrip(type, text)).toEqual(want)
  })

  it('splits a TXT string longer than 255 octets into 255-octet strings', () => {
    const long = 'x'.repeat(600)
    const data = roundTrip(16, `"${long}"`) as Buffer[]
    expect(data.map((b) => b.length)).toEqual([255, 255, 90])
    expect(Buffer.concat(data).toString()).toBe(long)
  })

  it('encodes a 63-octet label', () => {
    const label = 'a'.repeat(63)
    expect(roundTrip(5, `${label}.example.com.`)).toBe(`${label}.example.com`)
  })
})
