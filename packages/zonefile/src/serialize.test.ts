import { describe, expect, it } from 'vitest'
import { parseZoneFile, serializeZoneFile, type SerializeRecord } from './index.ts'

const SOA: SerializeRecord = {
  name: 'example.com',
  ttl: 3600,
  type: 'SOA',
  rdata: 'ns1.example.com. hostmaster.example.com. 2024010101 7200 3600 1209600 300',
}

const RECORDS: SerializeRecord[] = [
  { name: 'www.example.com', ttl: 300, type: 'CNAME', rdata: 'example.com.', comment: 'site' },
  { name: 'example.com', ttl: 300, type: 'TXT', rdata: '"v=spf1 -all" "a;b \\"q\\""' },
  { name: 'b.example.com', ttl: 60, type: 'A', rdata: '192.0.2.2' },
  { name: 'example.com', ttl: 86400, type: 'NS', rdata: 'ns1.example.com.' },
  { name: 'a.b.example.com', ttl: 60, type: 'AAAA', rdata: '2001:db8::1' },
  {
    name: 'Z.example.com',
    ttl: 1,
    type: 'A',
    rdata: '192.0.2.3',
    comment: 'x cf_tags=cf-proxied:true',
  },
  { name: '_sip._tcp.example.com', ttl: 60, type: 'SRV', rdata: '10 60 5060 sip.example.com.' },
  { name: 'example.com', ttl: 300, type: 'MX', rdata: '10 mail.example.com.' },
  { name: '*.example.com', ttl: 60, type: 'A', rdata: '192.0.2.9' },
  { name: 'example.com', ttl: 300, type: 'CAA', rdata: '0 issue "letsencrypt.org"' },
]

describe('serializeZoneFile', () => {
  const header = 'Exported\nby edgedns'
  const text = serializeZoneFile({ origin: 'example.com', soa: SOA, records: RECORDS, header })

  it('writes header, $ORIGIN, $TTL, SOA first, then canonical name order and type order', () => {
    expect(text.split('\n')).toEqual([
      '; Exported',
      '; by edgedns',
      '$ORIGIN example.com.',
      '$TTL 3600',
      `example.com.\t3600\tIN\tSOA\t${SOA.rdata}`,
      'example.com.\t86400\tIN\tNS\tns1.example.com.',
      'example.com.\t300\tIN\tMX\t10 mail.example.com.',
      'example.com.\t300\tIN\tTXT\t"v=spf1 -all" "a;b \\"q\\""',
      'example.com.\t300\tIN\tCAA\t0 issue "letsencrypt.org"',
      '*.example.com.\t60\tIN\tA\t192.0.2.9',
      '_sip._tcp.example.com.\t60\tIN\tSRV\t10 60 5060 sip.example.com.',
      'b.example.com.\t60\tIN\tA\t192.0.2.2',
      'a.b.example.com.\t60\tIN\tAAAA\t2001:db8::1',
      'www.example.com.\t300\tIN\tCNAME\texample.com. ; site',
      'z.example.com.\t1\tIN\tA\t192.0.2.3 ; x cf_tags=cf-proxied:true',
      '',
    ])
  })

  it('round-trips through parseZoneFile', () => {
    const parsed = parseZoneFile(text, { origin: 'other.test' })
    const expected = [SOA, ...RECORDS].map((r) => ({
      name: r.name.toLowerCase(),
      ttl: r.ttl,
      type: r.type,
      rdata: r.rdata,
      comment: r.comment,
    }))
    const actual = parsed.map(({ name, ttl, type, rdata, comment }) => ({
      name,
      ttl,
      type,
      rdata,
      comment,
    }))
    const key = (r: { name: string; type: string; rdata: string }) =>
      `${r.name} ${r.type} ${r.rdata}`
    expect([...actual].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      [...expected].sort((a, b) => key(a).localeCompare(key(b)))
    )
    expect(parsed.every((e) => e.origin === 'example.com')).toBe(true)
  })

  it('handles an empty zone, names with a trailing dot and the root', () => {
    expect(serializeZoneFile({ origin: 'example.com.', records: [] })).toBe(
      '$ORIGIN example.com.\n$TTL 3600\n'
    )
    const root = serializeZoneFile({
      origin: '.',
      records: [{ name: '.', ttl: 5, type: 'NS', rdata: 'a.root-servers.net.' }],
    })
    expect(root).toBe('$ORIGIN .\n$TTL 5\n.\t5\tIN\tNS\ta.root-servers.net.\n')
    expect(parseZoneFile(root, { origin: '.' })[0]).toMatchObject({ name: '.', origin: '.' })
  })

  it('refuses values that cannot be written on one line', () => {
    const bad = (r: Partial<SerializeRecord>) => () =>
      serializeZoneFile({ origin: 'e.com', records: [{ ...RECORDS[2]!, ...r }] })
    expect(bad({ rdata: 'a\nb' })).toThrow(TypeError)
    expect(bad({ ttl: -1 })).toThrow(TypeError)
    expect(bad({ name: 'a b.e.com' })).toThrow(TypeError)
    expect(bad({ type: 'A B' })).toThrow(TypeError)
  })
})

describe('a record that cannot be written', () => {
  it('is a comment line in its place, naming it and why, that the parser skips', () => {
    const text = serializeZoneFile({
      origin: 'example.com',
      soa: SOA,
      records: [
        { name: 'a.example.com', ttl: 60, type: 'A', rdata: '192.0.2.1' },
        { name: 'b.example.com', ttl: 300, type: 'HTTPS', rdata: '', skipped: 'not\nvalid' },
      ],
    })
    expect(text).toContain('\n; skipped: b.example.com. 300 IN HTTPS: not valid\n')
    const parsed = parseZoneFile(text, { origin: 'example.com' })
    expect(parsed.map((r) => r.type)).toEqual(['SOA', 'A'])
  })
})
