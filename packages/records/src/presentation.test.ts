import { describe, expect, it } from 'vitest'
import { fromPresentation, normalizeContent, toPresentation } from './content.ts'
import { RECORD_TYPES, type RecordType } from './record-type.ts'
import { REGISTRY } from './registry.ts'
import type { RecordFields } from './spec.ts'
import { KEY_EXAMPLE as KEY } from './types/examples.ts'

const ORIGIN = 'example.com.'

function present(fields: RecordFields): string {
  const n = normalizeContent(fields)
  return toPresentation({ type: fields.type, ...n })
}

/** [type, API fields, expected presentation]: every type's own example, plus special forms. */
const CASES: [RecordType, RecordFields, string][] = [
  ...RECORD_TYPES.map((type): [RecordType, RecordFields, string] => {
    const { fields, presentation } = REGISTRY[type].example
    return [type, { type, ...fields }, presentation]
  }),
  ['HTTPS', { type: 'HTTPS', content: '0 pool.example.net' }, '0 pool.example.net.'],
  ['MX', { type: 'MX', content: '.', priority: 0 }, '0 .'],
  // ohttp (RFC 9540) is written by number, which readers that predate it (BIND 9.18) still read
  [
    'HTTPS',
    { type: 'HTTPS', data: { priority: 1, target: '.', value: 'ohttp alpn=h2' } },
    '1 . alpn="h2" key8',
  ],
]

describe('toPresentation', () => {
  it.each(CASES)('%s -> RFC presentation', (_type, fields, want) => {
    expect(present(fields)).toBe(want)
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
    ['TXT', '"v=spf1 -all"', { content: 'v=spf1 -all' }],
    ['TXT', '"a" "b"', { content: '"a" "b"' }],
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

describe('fromPresentation: escapes in names', () => {
  const DOT = /label "a\.b" contains a dot \(written \\\.\), which this API does not allow/i

  it.each([
    ['CNAME', 'a\\.b.example.net.'],
    ['NS', 'a\\.b.example.net.'],
    ['PTR', 'a\\.b'],
    ['MX', '10 a\\.b.example.net.'],
    ['SRV', '1 2 3 a\\.b.example.net.'],
    ['NAPTR', '1 1 "S" "x" "" a\\.b.example.net.'],
    ['SVCB', '1 a\\.b.example.net. alpn=h2'],
    ['HTTPS', '1 a\\.b alpn=h2'],
  ] as [RecordType, string][])('%s %s: an escaped dot is refused, not split', (type, rdata) => {
    expect(() => normalizeContent(fromPresentation(type, rdata, ORIGIN))).toThrow(DOT)
  })

  it('refuses an escaped final dot rather than reading the name as absolute', () => {
    expect(() => fromPresentation('CNAME', 'foo\\.', ORIGIN)).toThrow(
      /label "foo\." contains a dot/i
    )
  })

  it.each([
    ['CNAME', 't\\065rget', { content: 'tArget.example.com' }],
    ['CNAME', 't\\065rget.example.net.', { content: 'tArget.example.net' }],
    ['MX', '1\\048 m\\-x', { priority: 10, content: 'm-x.example.com' }],
    [
      'SRV',
      '1 2 3 s\\rv',
      { data: { priority: 1, weight: 2, port: 3, target: 'srv.example.com' } },
    ],
    ['NAPTR', '1 1 "S" "x" "" r\\101p.', { data: { replacement: 'rep' } }],
    ['HTTPS', '1 t\\065rget alpn=h2', { data: { target: 'tArget.example.com' } }],
    ['CNAME', 'a\\\\.b.', { content: 'a\\.b' }],
  ] as [RecordType, string, Partial<RecordFields>][])(
    '%s %s: other escapes are decoded',
    (type, rdata, want) => {
      expect(fromPresentation(type, rdata, ORIGIN)).toMatchObject(want)
    }
  )

  it('decodes escapes in API content of SRV and NAPTR the same way', () => {
    expect(
      normalizeContent({ type: 'SRV', content: '1 2 3 s\\065rv.example.com', priority: 0 })
    ).toMatchObject({ data: { target: 'sarv.example.com' } })
    expect(() =>
      normalizeContent({ type: 'NAPTR', content: '1 1 "S" "x" "" a\\.b.example.com.' })
    ).toThrow(DOT)
  })
})
