import { describe, expect, it } from 'vitest'
import { normalizeContent, toPresentation } from './content.ts'
import type { NormalizedContent, RecordFields } from './spec.ts'

const KEY = 'AwEAAagAIKlVZrpC6Ia7gEzahOR+9W29euxhJhVVLOyQbSEW0O8gcCjF'
const SHA256 = '1f987cc6583e92df0890718c4281a8ad50a5c8f2c0ae82f8ea7dc08edfdd6d1f'
const SHA1 = '123456789abcdef67890123456789abcdef67890'

type Case = [string, RecordFields, Partial<NormalizedContent>]

const VALID: Case[] = [
  [
    'A dotted quad',
    { type: 'A', content: '192.0.2.1' },
    { content: '192.0.2.1', data: null, priority: null },
  ],
  ['A trims spaces', { type: 'A', content: ' 192.0.2.1 ' }, { content: '192.0.2.1' }],
  ['AAAA compressed', { type: 'AAAA', content: 'FE80:0:0:0:0:0:0:1' }, { content: 'fe80::1' }],
  ['AAAA mapped', { type: 'AAAA', content: '::ffff:c000:0201' }, { content: '::ffff:192.0.2.1' }],
  ['CNAME', { type: 'CNAME', content: 'Target.Example.org.' }, { content: 'target.example.org' }],
  ['CNAME IDN', { type: 'CNAME', content: 'bücher.example' }, { content: 'xn--bcher-kva.example' }],
  ['NS', { type: 'NS', content: 'NS1.example.net.' }, { content: 'ns1.example.net' }],
  ['PTR', { type: 'PTR', content: 'host.example.com' }, { content: 'host.example.com' }],
  [
    'MX',
    { type: 'MX', content: 'Mail.Example.com.', priority: 10 },
    { content: 'mail.example.com', data: null, priority: 10 },
  ],
  ['MX null', { type: 'MX', content: '.', priority: 0 }, { content: '.', priority: 0 }],
  [
    'TXT unquoted, kept as sent',
    { type: 'TXT', content: 'v=spf1 -all' },
    { content: 'v=spf1 -all' },
  ],
  [
    'TXT quoted list, kept as sent',
    { type: 'TXT', content: '"a"   "b c"' },
    { content: '"a"   "b c"' },
  ],
  ['TXT inner quote', { type: 'TXT', content: 'say "hi"' }, { content: 'say "hi"' }],
  ['TXT empty string', { type: 'TXT', content: '""' }, { content: '""' }],
  ['TXT UTF-8', { type: 'TXT', content: 'héllo' }, { content: 'héllo' }],
  ['TXT trimmed', { type: 'TXT', content: '  acme-v2-1033 ' }, { content: 'acme-v2-1033' }],
  [
    'OPENPGPKEY',
    { type: 'OPENPGPKEY', content: `${KEY.slice(0, 20)} ${KEY.slice(20)}` },
    { content: KEY },
  ],
  [
    'CAA data',
    { type: 'CAA', data: { flags: 0, tag: 'Issue', value: 'letsencrypt.org' } },
    {
      content: '0 issue "letsencrypt.org"',
      data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    },
  ],
  [
    'CAA content',
    { type: 'CAA', content: '128 iodef "mailto:sec@example.com"' },
    { data: { flags: 128, tag: 'iodef', value: 'mailto:sec@example.com' } },
  ],
  [
    'CERT',
    { type: 'CERT', content: `PKIX 12345 RSASHA256 ${KEY}` },
    {
      content: `1 12345 8 ${KEY}`,
      data: { type: 1, key_tag: 12345, algorithm: 8, certificate: KEY },
    },
  ],
  [
    'DNSKEY',
    { type: 'DNSKEY', data: { flags: 257, protocol: 3, algorithm: 13, public_key: KEY } },
    { content: `257 3 13 ${KEY}` },
  ],
  [
    'DS',
    { type: 'DS', content: `2371 13 2 ${SHA256.toUpperCase()}` },
    {
      content: `2371 13 2 ${SHA256}`,
      data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: SHA256 },
    },
  ],
  [
    'HTTPS',
    {
      type: 'HTTPS',
      data: { priority: 1, target: '.', value: 'port=443 alpn="h2,h3" ipv4hint=192.0.2.1' },
    },
    {
      content: '1 . alpn="h2,h3" port=443 ipv4hint=192.0.2.1',
      data: { priority: 1, target: '.', value: 'alpn="h2,h3" port=443 ipv4hint=192.0.2.1' },
      priority: 1,
    },
  ],
  [
    'HTTPS alias',
    { type: 'HTTPS', data: { priority: 0, target: 'Pool.Example.net.' } },
    {
      content: '0 pool.example.net.',
      data: { priority: 0, target: 'pool.example.net.', value: '' },
      priority: 0,
    },
  ],
  [
    'SVCB content',
    { type: 'SVCB', content: '2 svc.example.net. alpn="h3,h2" mandatory=alpn' },
    { content: '2 svc.example.net. mandatory=alpn alpn="h3,h2"', priority: 2 },
  ],
  [
    'LOC content with m',
    { type: 'LOC', content: '37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m' },
    { content: '37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m' },
  ],
  [
    'LOC content without m, short form',
    { type: 'LOC', content: '52 22 n 4 53 e -2' },
    { content: '52 22 0.000 N 4 53 0.000 E -2.00m 1.00m 10000.00m 10.00m' },
  ],
  [
    'LOC data',
    {
      type: 'LOC',
      data: {
        lat_degrees: 37,
        lat_minutes: 46,
        lat_seconds: 46,
        lat_direction: 'N',
        long_degrees: 122,
        long_minutes: 23,
        long_seconds: 35,
        long_direction: 'W',
        altitude: 0,
        size: 100,
        precision_horz: 0,
        precision_vert: 0,
      },
    },
    { content: '37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m' },
  ],
  [
    'NAPTR',
    {
      type: 'NAPTR',
      data: {
        order: 100,
        preference: 10,
        flags: 'S',
        service: 'SIP+D2U',
        regex: '',
        replacement: '_sip._udp.Example.com.',
      },
    },
    { content: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.' },
  ],
  [
    'NAPTR content with regex',
    { type: 'NAPTR', content: '100 50 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .' },
    {
      data: {
        order: 100,
        preference: 50,
        flags: 'u',
        service: 'E2U+sip',
        regex: '!^.*$!sip:info@example.com!',
        replacement: '.',
      },
    },
  ],
  [
    'SMIMEA',
    { type: 'SMIMEA', content: `3 1 1 ${SHA256.toUpperCase()}` },
    { content: `3 1 1 ${SHA256}` },
  ],
  [
    'SRV data',
    { type: 'SRV', data: { priority: 10, weight: 5, port: 5223, target: 'Server.example.com.' } },
    {
      content: '5 5223 server.example.com',
      data: { priority: 10, weight: 5, port: 5223, target: 'server.example.com' },
      priority: 10,
    },
  ],
  [
    'SRV content + priority',
    { type: 'SRV', content: '0 5222 talk.l.google.com', priority: 20 },
    { content: '0 5222 talk.l.google.com', priority: 20 },
  ],
  [
    'SRV data ignores deprecated keys',
    {
      type: 'SRV',
      data: { priority: 1, weight: 1, port: 1, target: '.', service: '_x', proto: '_tcp' },
    },
    { content: '1 1 .', data: { priority: 1, weight: 1, port: 1, target: '.' } },
  ],
  ['SSHFP', { type: 'SSHFP', content: `4 1 ${SHA1.toUpperCase()}` }, { content: `4 1 ${SHA1}` }],
  [
    'TLSA',
    { type: 'TLSA', data: { usage: 3, selector: 1, matching_type: 1, certificate: SHA256 } },
    { content: `3 1 1 ${SHA256}` },
  ],
  ['TLSA full cert', { type: 'TLSA', content: '3 0 0 30820122' }, { content: '3 0 0 30820122' }],
  [
    'URI data',
    { type: 'URI', data: { weight: 1, target: 'https://example.com/' }, priority: 10 },
    {
      content: '1 "https://example.com/"',
      data: { weight: 1, target: 'https://example.com/' },
      priority: 10,
    },
  ],
  [
    'URI content with priority',
    { type: 'URI', content: '10 1 "ftp://ftp.example.com/public"' },
    { content: '1 "ftp://ftp.example.com/public"', priority: 10 },
  ],
]

describe('normalizeContent accepts and canonicalises', () => {
  it.each(VALID)('%s', (_name, fields, want) => {
    expect(normalizeContent(fields)).toMatchObject(want)
  })

  it('prefers data over content for data types', () => {
    const n = normalizeContent({
      type: 'CAA',
      content: '0 issue "ignored.example"',
      data: { flags: 0, tag: 'issue', value: 'used.example' },
    })
    expect(n.content).toBe('0 issue "used.example"')
  })

  it('is idempotent: normalising canonical content gives the same result', () => {
    for (const [, fields] of VALID) {
      const once = normalizeContent(fields)
      const again = normalizeContent({
        type: fields.type,
        content: once.content,
        priority: once.priority ?? undefined,
      })
      expect(again).toEqual(once)
    }
  })

  it('keeps long TXT content as sent and splits it into 255-octet character-strings in presentation', () => {
    const content = 'a'.repeat(300)
    const n = normalizeContent({ type: 'TXT', content })
    expect(n.content).toBe(content)
    expect(toPresentation({ type: 'TXT', content, data: null, priority: null })).toBe(
      `"${'a'.repeat(255)}" "${'a'.repeat(45)}"`
    )
  })

  it('splits long UTF-8 TXT on character boundaries', () => {
    const content = 'é'.repeat(200)
    expect(toPresentation({ type: 'TXT', content, data: null, priority: null })).toBe(
      `"${'é'.repeat(127)}" "${'é'.repeat(73)}"`
    )
  })
})

describe('fully qualified targets, as Cloudflare keeps them', () => {
  it('keeps the trailing dot on SVCB/HTTPS targets in content and data.target, written with or without it', () => {
    for (const target of ['svc.example.net.', 'svc.example.net', 'SVC.Example.Net.']) {
      const n = normalizeContent({ type: 'SVCB', data: { priority: 1, target, value: 'alpn=h3' } })
      expect(n.data).toMatchObject({ target: 'svc.example.net.' })
      expect(n.content).toBe('1 svc.example.net. alpn="h3"')
    }
    expect(normalizeContent({ type: 'HTTPS', content: '1 . alpn=h2' }).data).toMatchObject({
      target: '.',
    })
  })

  it('keeps the trailing dot on the NAPTR replacement in content and data.replacement', () => {
    const n = normalizeContent({
      type: 'NAPTR',
      content: '10 20 "S" "SIP+D2U" "" _sip._udp.example.com',
    })
    expect(n.data).toMatchObject({ replacement: '_sip._udp.example.com.' })
    expect(n.content).toBe('10 20 "S" "SIP+D2U" "" _sip._udp.example.com.')
  })

  it('gives CNAME, MX, NS, SRV and PTR targets no trailing dot', () => {
    expect(normalizeContent({ type: 'CNAME', content: 'a.example.' }).content).toBe('a.example')
    expect(normalizeContent({ type: 'MX', content: 'a.example.', priority: 1 }).content).toBe(
      'a.example'
    )
    expect(normalizeContent({ type: 'NS', content: 'a.example.' }).content).toBe('a.example')
    expect(normalizeContent({ type: 'PTR', content: 'a.example.' }).content).toBe('a.example')
    const srv = normalizeContent({
      type: 'SRV',
      data: { priority: 1, weight: 2, port: 3, target: 'a.example.' },
    })
    expect(srv.data).toMatchObject({ target: 'a.example' })
  })
})
