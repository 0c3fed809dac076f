import { describe, expect, it } from 'vitest'
import { fromPresentation, normalizeContent, toPresentation } from './content.ts'
import type { RecordType } from './record-type.ts'
import type { RecordFields } from './spec.ts'

const KEY = 'AwEAAagAIKlVZrpC6Ia7gEzahOR+9W29euxhJhVVLOyQbSEW0O8gcCjF'
const SHA256 = '1f987cc6583e92df0890718c4281a8ad50a5c8f2c0ae82f8ea7dc08edfdd6d1f'
const ORIGIN = 'example.com.'

function present(fields: RecordFields): string {
  const n = normalizeContent(fields)
  return toPresentation({ type: fields.type, ...n })
}

/** [type, API fields, expected presentation] */
const CASES: [RecordType, RecordFields, string][] = [
  ['A', { type: 'A', content: '192.0.2.1' }, '192.0.2.1'],
  ['AAAA', { type: 'AAAA', content: '2001:db8::1' }, '2001:db8::1'],
  ['CAA', { type: 'CAA', content: '0 issue "letsencrypt.org"' }, '0 issue "letsencrypt.org"'],
  ['CERT', { type: 'CERT', content: `1 12345 8 ${KEY}` }, `1 12345 8 ${KEY}`],
  ['CNAME', { type: 'CNAME', content: 'target.example.com' }, 'target.example.com.'],
  ['DNSKEY', { type: 'DNSKEY', content: `257 3 13 ${KEY}` }, `257 3 13 ${KEY}`],
  ['DS', { type: 'DS', content: `2371 13 2 ${SHA256}` }, `2371 13 2 ${SHA256}`],
  ['HTTPS', { type: 'HTTPS', content: '1 . alpn="h2,h3"' }, '1 . alpn="h2,h3"'],
  ['HTTPS', { type: 'HTTPS', content: '0 pool.example.net' }, '0 pool.example.net.'],
  [
    'LOC',
    { type: 'LOC', content: '37 46 46 N 122 23 35 W 0 100 0 0' },
    '37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m',
  ],
  ['MX', { type: 'MX', content: 'mx.example.com', priority: 10 }, '10 mx.example.com.'],
  ['MX', { type: 'MX', content: '.', priority: 0 }, '0 .'],
  [
    'NAPTR',
    { type: 'NAPTR', content: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com' },
    '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
  ],
  ['NS', { type: 'NS', content: 'ns1.example.net' }, 'ns1.example.net.'],
  ['OPENPGPKEY', { type: 'OPENPGPKEY', content: KEY }, KEY],
  ['PTR', { type: 'PTR', content: 'host.example.com' }, 'host.example.com.'],
  ['SMIMEA', { type: 'SMIMEA', content: `3 1 1 ${SHA256}` }, `3 1 1 ${SHA256}`],
  [
    'SRV',
    { type: 'SRV', data: { priority: 10, weight: 5, port: 5223, target: 'server.example.com' } },
    '10 5 5223 server.example.com.',
  ],
  ['SSHFP', { type: 'SSHFP', content: `4 2 ${SHA256}` }, `4 2 ${SHA256}`],
  [
    'SVCB',
    { type: 'SVCB', content: '2 svc.example.net alpn="h3,h2" port=8443' },
    '2 svc.example.net. alpn="h3,h2" port=8443',
  ],
  ['TLSA', { type: 'TLSA', content: `3 1 1 ${SHA256}` }, `3 1 1 ${SHA256}`],
  ['TXT', { type: 'TXT', content: '"a" "b"' }, '"a" "b"'],
  ['URI', { type: 'URI', content: '1 "https://x"', priority: 10 }, '10 1 "https://x"'],
]

describe('toPresentation', () => {
  it.each(CASES)('%s -> RFC presentation', (_type, fields, want) => {
    expect(present(fields)).toBe(want)
  })

  it('covers all 21 types', () => {
    expect(new Set(CASES.map((c) => c[0])).size).toBe(21)
  })

  it('recovers data for a data type stored with content only', () => {
    expect(
      toPresentation({
        type: 'SRV',
        content: '5 5223 server.example.com',
        data: null,
        priority: 10,
      })
    ).toBe('10 5 5223 server.example.com.')
  })
})

describe('fromPresentation round trip', () => {
  it.each(CASES)('%s: content -> presentation -> fields -> same content', (type, fields) => {
    const first = normalizeContent(fields)
    const rdata = toPresentation({ type, ...first })
    const back = normalizeContent(fromPresentation(type, rdata, ORIGIN))
    expect(back).toEqual(first)
  })
})

describe('fromPresentation resolves names against the origin', () => {
  it.each([
    ['CNAME', 'www', { content: 'www.example.com' }],
    ['CNAME', '@', { content: 'example.com' }],
    ['CNAME', 'other.org.', { content: 'other.org' }],
    ['MX', '10 mail', { content: 'mail.example.com', priority: 10 }],
    ['NS', 'ns1.example.net.', { content: 'ns1.example.net' }],
    [
      'SRV',
      '10 5 5060 sip',
      { data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' } },
    ],
    [
      'HTTPS',
      '1 svc alpn=h2',
      { data: { priority: 1, target: 'svc.example.com', value: 'alpn=h2' } },
    ],
    ['NAPTR', '1 1 "S" "x" "" _sip._udp', { data: { replacement: '_sip._udp.example.com' } }],
    ['TXT', 'v=spf1 -all', { content: '"v=spf1" "-all"' }],
    ['TXT', '"v=spf1 -all"', { content: '"v=spf1 -all"' }],
    ['OPENPGPKEY', `${KEY.slice(0, 10)} ${KEY.slice(10)}`, { content: KEY }],
    ['URI', '10 1 "https://x"', { priority: 10, data: { weight: 1, target: 'https://x' } }],
  ] as [RecordType, string, Partial<RecordFields>][])('%s %j', (type, rdata, want) => {
    const fields = fromPresentation(type, rdata, ORIGIN)
    expect(fields.type).toBe(type)
    expect(fields).toMatchObject(want)
  })

  it('rejects malformed rdata with the type code', () => {
    expect(() => fromPresentation('MX', 'mail', ORIGIN)).toThrow(
      expect.objectContaining({ code: 9009 })
    )
    expect(() => fromPresentation('SRV', '1 2 3', ORIGIN)).toThrow(
      expect.objectContaining({ code: 9036 })
    )
  })
})
