import { describe, expect, it } from 'vitest'
import { parseZone, MemoryView, zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const ZONE = `
  @        3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
  web      3600 IN A     192.0.2.1 ; proxied
  web       300 IN TXT   "hello"
  both     3600 IN A     192.0.2.2 ; proxied
  both     3600 IN AAAA  2001:db8::2 ; proxied
  alias    3600 IN CNAME origin.example.net. ; proxied
  plain    3600 IN A     192.0.2.3
  mixed    3600 IN A     192.0.2.4 ; proxied
  mixed    3600 IN AAAA  2001:db8::4
  *.wild   3600 IN A     192.0.2.9 ; proxied
`
const view = zones({ 'example.org': ZONE })
const SOA = 'example.org 300 SOA ns1.example.org. hostmaster.example.org. 1 7200 3600 1209600 300'
const PROXY_A = (n: string) => [`${n} 300 A 203.0.113.10`, `${n} 300 A 203.0.113.11`]
const PROXY_AAAA = (n: string) => [`${n} 300 AAAA 2001:db8:cf::10`]

const cases: Case[] = [
  {
    name: 'proxied A answers the proxy addresses, TTL 300',
    qname: 'web.example.org',
    qtype: 'A',
    answer: PROXY_A('web.example.org'),
  },
  {
    name: 'a proxied A-only name also answers AAAA',
    qname: 'web.example.org',
    qtype: 'AAAA',
    answer: PROXY_AAAA('web.example.org'),
  },
  {
    name: 'other types answer as stored',
    qname: 'web.example.org',
    qtype: 'TXT',
    answer: ['web.example.org 300 TXT "hello"'],
  },
  { name: 'missing types are NODATA', qname: 'web.example.org', qtype: 'MX', authority: [SOA] },
  {
    name: 'proxied AAAA answers the proxy',
    qname: 'both.example.org',
    qtype: 'AAAA',
    answer: PROXY_AAAA('both.example.org'),
  },
  {
    name: 'proxied CNAME answers A with the proxy',
    qname: 'alias.example.org',
    qtype: 'A',
    answer: PROXY_A('alias.example.org'),
  },
  {
    name: 'proxied CNAME answers AAAA with the proxy',
    qname: 'alias.example.org',
    qtype: 'AAAA',
    answer: PROXY_AAAA('alias.example.org'),
  },
  {
    name: 'proxied CNAME hides its target from CNAME questions',
    qname: 'alias.example.org',
    qtype: 'CNAME',
    authority: [SOA],
  },
  {
    name: 'proxied CNAME is NODATA for other types',
    qname: 'alias.example.org',
    qtype: 'TXT',
    authority: [SOA],
  },
  {
    name: 'unproxied records answer as stored',
    qname: 'plain.example.org',
    qtype: 'A',
    answer: ['plain.example.org 3600 A 192.0.2.3'],
  },
  {
    name: 'an unproxied AAAA beside a proxied A stays',
    qname: 'mixed.example.org',
    qtype: 'AAAA',
    answer: ['mixed.example.org 3600 AAAA 2001:db8::4'],
  },
  {
    name: 'a proxied wildcard answers the proxy at the query name',
    qname: 'x.wild.example.org',
    qtype: 'A',
    answer: PROXY_A('x.wild.example.org'),
  },
]

describe('proxied records', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })

  it('is NODATA for a family the zone has no proxy address for', async () => {
    const v4only = new MemoryView([
      parseZone('example.org', ZONE, { proxy: { ipv4: ['203.0.113.10'], ipv6: [] } }),
    ])
    const c: Case = { name: '', qname: 'web.example.org', qtype: 'AAAA', authority: [SOA] }
    expect(await ask(v4only, c.qname, c.qtype)).toEqual(expected(c))
  })

  it('answers a proxied apex CNAME with the proxy instead of flattening', async () => {
    const apex = zones({ 'example.org': '@ 300 IN CNAME origin.example.net. ; proxied' })
    const c: Case = { name: '', qname: 'example.org', qtype: 'A', answer: PROXY_A('example.org') }
    expect(await ask(apex, c.qname, c.qtype)).toEqual(expected(c))
  })
})
