import { describe, expect, it } from 'vitest'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const view = zones({
  'example.org': `
    @          3600 IN SOA ns1 hostmaster 2024010101 7200 3600 1209600 300
    @          3600 IN NS  ns1
    ns1        3600 IN A   192.0.2.53
    *           300 IN TXT "wildcard"
    *           300 IN A   192.0.2.100
    host        300 IN A   192.0.2.1
    *.sub       300 IN MX  10 mail
    mail        300 IN A   192.0.2.25
    a.*.deep    300 IN A   192.0.2.7
    *.cname     300 IN CNAME host
  `,
})

const SOA =
  'example.org 300 SOA ns1.example.org. hostmaster.example.org. 2024010101 7200 3600 1209600 300'

const cases: Case[] = [
  {
    name: 'synthesises A with the query name as owner',
    qname: 'x.example.org',
    qtype: 'A',
    answer: ['x.example.org 300 A 192.0.2.100'],
  },
  {
    name: 'synthesises TXT from the same wildcard',
    qname: 'x.example.org',
    qtype: 'TXT',
    answer: ['x.example.org 300 TXT "wildcard"'],
  },
  {
    name: 'gives NODATA for a type the wildcard lacks',
    qname: 'x.example.org',
    qtype: 'MX',
    authority: [SOA],
  },
  {
    name: 'matches several missing labels below the closest encloser',
    qname: 'a.b.c.example.org',
    qtype: 'A',
    answer: ['a.b.c.example.org 300 A 192.0.2.100'],
  },
  {
    name: 'does not apply to an existing name (NODATA instead)',
    qname: 'host.example.org',
    qtype: 'TXT',
    authority: [SOA],
  },
  {
    name: 'does not apply below an existing name without its own wildcard',
    qname: 'x.host.example.org',
    qtype: 'A',
    rcode: 'NXDOMAIN',
    authority: [SOA],
  },
  {
    name: 'uses the wildcard at the closest encloser',
    qname: 'x.sub.example.org',
    qtype: 'MX',
    answer: ['x.sub.example.org 300 MX 10 mail.example.org.'],
  },
  {
    name: 'is NODATA at the closest encloser wildcard, never the apex wildcard',
    qname: 'x.sub.example.org',
    qtype: 'A',
    authority: [SOA],
  },
  {
    name: 'synthesised from an empty non-terminal wildcard is NODATA',
    qname: 'y.deep.example.org',
    qtype: 'A',
    authority: [SOA],
  },
  {
    name: 'does not hide a name below a wildcard label',
    qname: 'a.*.deep.example.org',
    qtype: 'A',
    answer: ['a.*.deep.example.org 300 A 192.0.2.7'],
  },
  {
    name: 'answers the wildcard owner itself when asked literally',
    qname: '*.example.org',
    qtype: 'A',
    answer: ['*.example.org 300 A 192.0.2.100'],
  },
  {
    name: 'synthesises a CNAME and follows it',
    qname: 'www.cname.example.org',
    qtype: 'A',
    answer: [
      'www.cname.example.org 300 CNAME host.example.org.',
      'host.example.org 300 A 192.0.2.1',
    ],
  },
]

describe('wildcards (RFC 4592)', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })
})
