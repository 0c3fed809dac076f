import { describe, expect, it } from 'vitest'
import { normalizeContent } from './content.ts'
import { RecordError } from './errors.ts'
import type { RecordFields } from './spec.ts'

const SHA256 = '1f987cc6583e92df0890718c4281a8ad50a5c8f2c0ae82f8ea7dc08edfdd6d1f'

function failure(fields: RecordFields): { code: number; message: string } {
  try {
    normalizeContent(fields)
  } catch (e) {
    if (e instanceof RecordError) return { code: e.code, message: e.message }
    throw e
  }
  throw new Error(`accepted ${JSON.stringify(fields)}`)
}

type Bad = [string, RecordFields, number, (string | RegExp)?]

const INVALID: Bad[] = [
  [
    'A short form',
    { type: 'A', content: '1.1' },
    9005,
    'Content for A record must be a valid IPv4 address.',
  ],
  ['A leading zero', { type: 'A', content: '01.2.3.4' }, 9005],
  ['A octet > 255', { type: 'A', content: '1.2.3.256' }, 9005],
  ['A IPv6', { type: 'A', content: '2001:db8::1' }, 9005],
  ['A missing', { type: 'A' }, 9005],
  [
    'AAAA IPv4',
    { type: 'AAAA', content: '192.0.2.1' },
    9006,
    'Content for AAAA record must be a valid IPv6 address.',
  ],
  ['AAAA two ::', { type: 'AAAA', content: '1::2::3' }, 9006],
  [
    'CNAME IP',
    { type: 'CNAME', content: '192.0.2.1' },
    9007,
    /^Content for CNAME record is invalid\. /,
  ],
  ['CNAME wildcard', { type: 'CNAME', content: '*.example.com' }, 9007],
  ['CNAME root', { type: 'CNAME', content: '.' }, 9007],
  ['CNAME empty', { type: 'CNAME', content: '' }, 9007],
  ['NS bad label', { type: 'NS', content: 'ns 1.example.com' }, 9128],
  ['PTR empty label', { type: 'PTR', content: 'a..b' }, 9130],
  [
    'MX no priority',
    { type: 'MX', content: 'mx.example.com' },
    9100,
    'priority is a required field.',
  ],
  ['MX priority range', { type: 'MX', content: 'mx.example.com', priority: 65536 }, 9008],
  ['MX priority fraction', { type: 'MX', content: 'mx.example.com', priority: 1.5 }, 9008],
  [
    'MX IP',
    { type: 'MX', content: '192.0.2.1', priority: 10 },
    9009,
    /content must be a hostname, not an IP/i,
  ],
  ['TXT empty', { type: 'TXT', content: '' }, 9135, /content is required/i],
  ['TXT unterminated', { type: 'TXT', content: '"abc' }, 9135, /not terminated/],
  ['TXT bad escape', { type: 'TXT', content: '"\\300"' }, 9135, /DDD/],
  ['TXT too big', { type: 'TXT', content: 'x'.repeat(4100) }, 9135, /4096/],
  ['OPENPGPKEY not base64', { type: 'OPENPGPKEY', content: 'not*base64' }, 9129, /base64/],
  [
    'CAA flags range',
    { type: 'CAA', data: { flags: 256, tag: 'issue', value: 'x' } },
    9121,
    /data\.flags must be an integer between 0 and 255/,
  ],
  [
    'CAA missing tag',
    { type: 'CAA', data: { flags: 0, value: 'x' } },
    9121,
    /data\.tag is required/,
  ],
  [
    'CAA bad tag',
    { type: 'CAA', data: { flags: 0, tag: 'is-sue', value: 'x' } },
    9121,
    /data\.tag/,
  ],
  ['CAA content shape', { type: 'CAA', content: '0 issue' }, 9121],
  [
    'CAA data not object',
    { type: 'CAA', data: 'x' as unknown as Record<string, unknown> },
    9121,
    /data must be an object/i,
  ],
  [
    'CERT bad base64',
    { type: 'CERT', data: { type: 1, key_tag: 1, algorithm: 8, certificate: '!!' } },
    9122,
    /data\.certificate/,
  ],
  [
    'CERT key_tag range',
    { type: 'CERT', data: { type: 1, key_tag: 70000, algorithm: 8, certificate: 'AA==' } },
    9122,
    /data\.key_tag/,
  ],
  [
    'DNSKEY string number',
    { type: 'DNSKEY', data: { flags: '257', protocol: 3, algorithm: 13, public_key: 'AA==' } },
    9123,
    /data\.flags/,
  ],
  [
    'DS digest length',
    { type: 'DS', data: { key_tag: 1, algorithm: 13, digest_type: 2, digest: 'abcd' } },
    9124,
    /data\.digest must be 64 hex/,
  ],
  [
    'DS not hex',
    { type: 'DS', data: { key_tag: 1, algorithm: 13, digest_type: 9, digest: 'xyz0' } },
    9124,
    /hex digits/,
  ],
  [
    'HTTPS alias with params',
    { type: 'HTTPS', data: { priority: 0, target: 'x.example', value: 'alpn=h2' } },
    9125,
    /AliasMode/,
  ],
  [
    'HTTPS unknown key',
    { type: 'HTTPS', data: { priority: 1, target: '.', value: 'foo=bar' } },
    9125,
    /unknown SvcParam key "foo"/,
  ],
  [
    'HTTPS bad port',
    { type: 'HTTPS', data: { priority: 1, target: '.', value: 'port=70000' } },
    9125,
    /port/,
  ],
  [
    'HTTPS bad ipv4hint',
    { type: 'HTTPS', data: { priority: 1, target: '.', value: 'ipv4hint=1.2.3' } },
    9125,
    /ipv4hint/,
  ],
  [
    'HTTPS priority range',
    { type: 'HTTPS', data: { priority: -1, target: '.', value: '' } },
    9125,
    /data\.priority/,
  ],
  [
    'LOC latitude range',
    { type: 'LOC', content: '91 0 0 N 0 0 0 E 0m' },
    9126,
    /data\.lat_degrees/,
  ],
  [
    'LOC seconds range',
    { type: 'LOC', content: '10 0 60 N 0 0 0 E 0m' },
    9126,
    /data\.lat_seconds/,
  ],
  [
    'LOC direction',
    {
      type: 'LOC',
      data: {
        lat_degrees: 1,
        lat_direction: 'X',
        long_degrees: 1,
        long_direction: 'E',
        altitude: 0,
      },
    },
    9126,
    /data\.lat_direction/,
  ],
  ['LOC 90 with minutes', { type: 'LOC', content: '90 1 0 N 0 0 0 E 0m' }, 9126, /90 degrees/],
  ['LOC altitude range', { type: 'LOC', content: '1 N 1 E 99999999m' }, 9126, /data\.altitude/],
  [
    'NAPTR order range',
    { type: 'NAPTR', content: '70000 10 "S" "SIP+D2U" "" .' },
    9127,
    /data\.order/,
  ],
  [
    'NAPTR flags',
    {
      type: 'NAPTR',
      data: { order: 1, preference: 1, flags: 'a!', service: '', regex: '', replacement: '.' },
    },
    9127,
    /data\.flags/,
  ],
  ['SMIMEA hex length', { type: 'SMIMEA', content: '3 1 1 abcd' }, 9131, /128|64/],
  [
    'SRV port range',
    { type: 'SRV', data: { priority: 1, weight: 1, port: 65536, target: 'x.example' } },
    9036,
    /data\.port/,
  ],
  [
    'SRV missing priority',
    { type: 'SRV', content: '5 5223 server.example.com' },
    9036,
    /data\.priority is required/,
  ],
  [
    'SRV target IP',
    { type: 'SRV', data: { priority: 1, weight: 1, port: 1, target: '192.0.2.1' } },
    9036,
    /data\.target/,
  ],
  [
    'SSHFP sha256 length',
    { type: 'SSHFP', data: { algorithm: 4, type: 2, fingerprint: 'ab' } },
    9132,
    /64 hex/,
  ],
  [
    'SVCB bad mandatory',
    { type: 'SVCB', data: { priority: 1, target: '.', value: 'mandatory=port' } },
    9133,
    /mandatory key "port" is missing/,
  ],
  [
    'SVCB no-default-alpn alone',
    { type: 'SVCB', data: { priority: 1, target: '.', value: 'no-default-alpn' } },
    9133,
    /requires "alpn"/,
  ],
  [
    'TLSA selector range',
    { type: 'TLSA', data: { usage: 3, selector: 256, matching_type: 1, certificate: SHA256 } },
    9134,
    /data\.selector/,
  ],
  ['URI missing priority', { type: 'URI', data: { weight: 1, target: 'https://x' } }, 9100],
  [
    'URI empty target',
    { type: 'URI', data: { weight: 1, target: '' }, priority: 1 },
    9136,
    /data\.target/,
  ],
  ['URI weight range', { type: 'URI', content: '1 70000 "https://x"' }, 9136, /data\.weight/],
  ['unknown type', { type: 'SPF' as 'TXT', content: 'x' }, 9020],
]

describe('normalizeContent rejects with the type code', () => {
  it.each(INVALID)('%s', (_name, fields, code, message) => {
    const f = failure(fields)
    expect(f.code).toBe(code)
    if (typeof message === 'string') expect(f.message).toBe(message)
    else if (message) expect(f.message).toMatch(message)
  })

  it('names the type in generic messages', () => {
    expect(failure({ type: 'DS', content: '1 2' }).message).toMatch(
      /^Content for DS record is invalid\. Expected/
    )
  })
})
