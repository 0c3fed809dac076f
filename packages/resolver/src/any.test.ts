import { describe, expect, it } from 'vitest'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const view = zones({
  'example.org': `
    @        3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
    @        3600 IN NS    ns1
    @         300 IN MX    10 mail
    @         300 IN TXT   "v=spf1 -all"
    ns1      3600 IN A     192.0.2.53
    multi     300 IN TXT   "t"
    multi     300 IN AAAA  2001:db8::5
    multi     300 IN A     192.0.2.5
    multi     300 IN A     192.0.2.6
    alias     300 IN CNAME multi
    a.ent     300 IN A     192.0.2.7
    *.wild    300 IN TXT   "w"
    *.wild    300 IN MX    5 mail
    web       300 IN A     192.0.2.8 ; proxied
  `,
})

const SOA = 'example.org 300 SOA ns1.example.org. hostmaster.example.org. 1 7200 3600 1209600 300'

const cases: Case[] = [
  {
    name: 'returns one RRset: the lowest type present',
    qname: 'multi.example.org',
    qtype: 'ANY',
    answer: ['multi.example.org 300 A 192.0.2.5', 'multi.example.org 300 A 192.0.2.6'],
  },
  {
    name: 'at the apex that is NS',
    qname: 'example.org',
    qtype: 'ANY',
    answer: ['example.org 3600 NS ns1.example.org.'],
  },
  {
    name: 'does not follow a CNAME',
    qname: 'alias.example.org',
    qtype: 'ANY',
    answer: ['alias.example.org 300 CNAME multi.example.org.'],
  },
  {
    name: 'at an empty non-terminal is NODATA',
    qname: 'ent.example.org',
    qtype: 'ANY',
    authority: [SOA],
  },
  {
    name: 'at a missing name is NXDOMAIN',
    qname: 'nope.example.org',
    qtype: 'ANY',
    rcode: 'NXDOMAIN',
    authority: [SOA],
  },
  {
    name: 'is synthesised from a wildcard',
    qname: 'x.wild.example.org',
    qtype: 'ANY',
    answer: ['x.wild.example.org 300 MX 5 mail.example.org.'],
  },
  {
    name: 'at a proxied name returns the proxy addresses',
    qname: 'web.example.org',
    qtype: 'ANY',
    answer: ['web.example.org 300 A 203.0.113.10', 'web.example.org 300 A 203.0.113.11'],
  },
]

describe('ANY (RFC 8482)', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })
})
