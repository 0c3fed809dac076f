import { describe, expect, it } from 'vitest'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const view = zones({
  'example.org': `
    @            3600 IN SOA ns1 hostmaster 7 7200 3600 1209600 600
    a.b.c         300 IN A   192.0.2.1
    _sip._tcp     300 IN SRV 10 5 5060 sip
    sip           300 IN A   192.0.2.5
    *             300 IN A   192.0.2.100
  `,
})

const SOA = 'example.org 600 SOA ns1.example.org. hostmaster.example.org. 7 7200 3600 1209600 600'

const cases: Case[] = [
  {
    name: 'an empty non-terminal is NODATA',
    qname: 'b.c.example.org',
    qtype: 'A',
    authority: [SOA],
  },
  { name: 'its parent too', qname: 'c.example.org', qtype: 'TXT', authority: [SOA] },
  { name: 'an ENT blocks the apex wildcard', qname: 'c.example.org', qtype: 'A', authority: [SOA] },
  {
    name: 'a missing name below an ENT is NXDOMAIN (no wildcard at the ENT)',
    qname: 'x.b.c.example.org',
    qtype: 'A',
    rcode: 'NXDOMAIN',
    authority: [SOA],
  },
  {
    name: 'the underscore parent of an SRV name is an ENT',
    qname: '_tcp.example.org',
    qtype: 'SRV',
    authority: [SOA],
  },
  {
    name: 'the SRV name answers',
    qname: '_sip._tcp.example.org',
    qtype: 'SRV',
    answer: ['_sip._tcp.example.org 300 SRV 10 5 5060 sip.example.org.'],
  },
  {
    name: 'a sibling of an ENT still matches the wildcard',
    qname: 'd.example.org',
    qtype: 'A',
    answer: ['d.example.org 300 A 192.0.2.100'],
  },
]

describe('empty non-terminals', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })
})
