import { describe, expect, it } from 'vitest'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const chain = Array.from({ length: 10 }, (_, i) => `c${i} 60 IN CNAME c${i + 1}`).join('\n')

const view = zones({
  'example.org': `
    @        3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
    www       300 IN CNAME web
    web       600 IN CNAME host
    host      120 IN A 192.0.2.1
    host      120 IN AAAA 2001:db8::1
    out       300 IN CNAME www.example.net.
    dangling  300 IN CNAME missing
    notxt     300 IN CNAME host
    loop1     300 IN CNAME loop2
    loop2     300 IN CNAME loop1
    self      300 IN CNAME self
    there     300 IN CNAME back.other.test.
    cross     300 IN CNAME www.other.test.
    deleg     300 IN CNAME x.child
    child    3600 IN NS ns.elsewhere.net.
    ${chain}
    c10        60 IN A 192.0.2.10
  `,
  'other.test': `
    @        3600 IN SOA ns1 hostmaster 3 7200 3600 1209600 60
    www       300 IN A 198.51.100.1
    back      300 IN CNAME there.example.org.
  `,
  'flat.test': `
    @        3600 IN SOA ns1 hostmaster 4 7200 3600 1209600 300
    @         300 IN CNAME www
    www       120 IN A 192.0.2.80
    www      3600 IN AAAA 2001:db8::80
  `,
  'flatout.test': `
    @         300 IN CNAME www.example.net.
  `,
  'flatcross.test': `
    @         300 IN CNAME www.other.test.
  `,
})

const SOA = 'example.org 300 SOA ns1.example.org. hostmaster.example.org. 1 7200 3600 1209600 300'
const FLAT_SOA = 'flat.test 300 SOA ns1.flat.test. hostmaster.flat.test. 4 7200 3600 1209600 300'

const cases: Case[] = [
  {
    name: 'follows a chain inside the zone',
    qname: 'www.example.org',
    qtype: 'A',
    answer: [
      'www.example.org 300 CNAME web.example.org.',
      'web.example.org 600 CNAME host.example.org.',
      'host.example.org 120 A 192.0.2.1',
    ],
  },
  {
    name: 'answers a CNAME question with the CNAME only',
    qname: 'www.example.org',
    qtype: 'CNAME',
    answer: ['www.example.org 300 CNAME web.example.org.'],
  },
  {
    name: 'stops at a target outside hosted zones',
    qname: 'out.example.org',
    qtype: 'A',
    answer: ['out.example.org 300 CNAME www.example.net.'],
  },
  {
    name: 'NXDOMAIN for the last name of the chain (RFC 6604)',
    qname: 'dangling.example.org',
    qtype: 'A',
    rcode: 'NXDOMAIN',
    answer: ['dangling.example.org 300 CNAME missing.example.org.'],
    authority: [SOA],
  },
  {
    name: 'NODATA at the target keeps the CNAME',
    qname: 'notxt.example.org',
    qtype: 'TXT',
    answer: ['notxt.example.org 300 CNAME host.example.org.'],
    authority: [SOA],
  },
  {
    name: 'answers a two-name loop SERVFAIL with the chain',
    qname: 'loop1.example.org',
    qtype: 'A',
    rcode: 'SERVFAIL',
    answer: [
      'loop1.example.org 300 CNAME loop2.example.org.',
      'loop2.example.org 300 CNAME loop1.example.org.',
    ],
  },
  {
    name: 'answers a self loop SERVFAIL',
    qname: 'self.example.org',
    qtype: 'A',
    rcode: 'SERVFAIL',
    answer: ['self.example.org 300 CNAME self.example.org.'],
  },
  {
    name: 'answers a loop through another hosted zone SERVFAIL',
    qname: 'there.example.org',
    qtype: 'TXT',
    rcode: 'SERVFAIL',
    answer: [
      'there.example.org 300 CNAME back.other.test.',
      'back.other.test 300 CNAME there.example.org.',
    ],
  },
  {
    name: 'answers the CNAME itself at a looping name (nothing is followed)',
    qname: 'loop1.example.org',
    qtype: 'CNAME',
    answer: ['loop1.example.org 300 CNAME loop2.example.org.'],
  },
  {
    name: 'follows into another hosted zone',
    qname: 'cross.example.org',
    qtype: 'A',
    answer: ['cross.example.org 300 CNAME www.other.test.', 'www.other.test 300 A 198.51.100.1'],
  },
  {
    name: 'uses the target zone SOA for a negative end',
    qname: 'cross.example.org',
    qtype: 'MX',
    answer: ['cross.example.org 300 CNAME www.other.test.'],
    authority: ['other.test 60 SOA ns1.other.test. hostmaster.other.test. 3 7200 3600 1209600 60'],
  },
  {
    name: 'ends in a referral when the target is delegated',
    qname: 'deleg.example.org',
    qtype: 'A',
    answer: ['deleg.example.org 300 CNAME x.child.example.org.'],
    authority: ['child.example.org 3600 NS ns.elsewhere.net.'],
  },
  {
    name: 'follows at most 8 CNAMEs',
    qname: 'c0.example.org',
    qtype: 'A',
    answer: Array.from(
      { length: 9 },
      (_, i) => `c${i}.example.org 60 CNAME c${i + 1}.example.org.`
    ),
  },
  {
    name: 'follows a chain of exactly 8',
    qname: 'c2.example.org',
    qtype: 'A',
    answer: [
      ...Array.from(
        { length: 8 },
        (_, i) => `c${i + 2}.example.org 60 CNAME c${i + 3}.example.org.`
      ),
      'c10.example.org 60 A 192.0.2.10',
    ],
  },
  {
    name: 'flattens an apex CNAME into the target A',
    qname: 'flat.test',
    qtype: 'A',
    answer: ['flat.test 120 A 192.0.2.80'],
  },
  {
    name: 'flattens with TTL min(CNAME, target)',
    qname: 'flat.test',
    qtype: 'AAAA',
    answer: ['flat.test 300 AAAA 2001:db8::80'],
  },
  {
    name: 'keeps other apex types: SOA',
    qname: 'flat.test',
    qtype: 'SOA',
    answer: ['flat.test 3600 SOA ns1.flat.test. hostmaster.flat.test. 4 7200 3600 1209600 300'],
  },
  {
    name: 'apex CNAME is not followed for TXT',
    qname: 'flat.test',
    qtype: 'TXT',
    authority: [FLAT_SOA],
  },
  {
    name: 'apex CNAME answers a CNAME question',
    qname: 'flat.test',
    qtype: 'CNAME',
    answer: ['flat.test 300 CNAME www.flat.test.'],
  },
  {
    name: 'flattens across hosted zones',
    qname: 'flatcross.test',
    qtype: 'A',
    answer: ['flatcross.test 300 A 198.51.100.1'],
  },
  {
    name: 'cannot flatten to a name outside hosted zones (NODATA)',
    qname: 'flatout.test',
    qtype: 'A',
    authority: [
      'flatout.test 300 SOA ns1.flatout.test. hostmaster.flatout.test. 1 7200 3600 1209600 300',
    ],
  },
]

describe('CNAME chains and apex flattening', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })
})
