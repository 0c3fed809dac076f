import { describe, expect, it } from 'vitest'
import { resolve } from './resolve.ts'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const view = zones({
  'example.org': `
    @     3600 IN SOA ns1 hostmaster 5 7200 3600 1209600 300
    @     3600 IN NS  ns1
    @      300 IN MX  10 mail
    ns1   3600 IN A   192.0.2.53
    mail   300 IN A   192.0.2.25
  `,
  'short.test': `
    @       60 IN SOA ns1 hostmaster 9 7200 3600 1209600 900
    www    300 IN A   192.0.2.9
  `,
})

const SOA = 'example.org 300 SOA ns1.example.org. hostmaster.example.org. 5 7200 3600 1209600 300'
const SHORT = 'short.test 60 SOA ns1.short.test. hostmaster.short.test. 9 7200 3600 1209600 900'

const cases: Case[] = [
  {
    name: 'NXDOMAIN carries the SOA',
    qname: 'nope.example.org',
    qtype: 'A',
    rcode: 'NXDOMAIN',
    authority: [SOA],
  },
  { name: 'NODATA carries the SOA', qname: 'mail.example.org', qtype: 'AAAA', authority: [SOA] },
  { name: 'NODATA at the apex', qname: 'example.org', qtype: 'TXT', authority: [SOA] },
  {
    name: 'negative TTL is the SOA TTL when smaller',
    qname: 'x.short.test',
    qtype: 'A',
    rcode: 'NXDOMAIN',
    authority: [SHORT],
  },
  {
    name: 'NODATA uses the same negative TTL',
    qname: 'www.short.test',
    qtype: 'MX',
    authority: [SHORT],
  },
  {
    name: 'a name in no hosted zone is REFUSED',
    qname: 'www.example.net',
    qtype: 'A',
    rcode: 'REFUSED',
    aa: false,
  },
  {
    name: 'a parent of a hosted zone is REFUSED',
    qname: 'org',
    qtype: 'NS',
    rcode: 'REFUSED',
    aa: false,
  },
  {
    name: 'the apex SOA answers positively',
    qname: 'example.org',
    qtype: 'SOA',
    answer: [
      'example.org 3600 SOA ns1.example.org. hostmaster.example.org. 5 7200 3600 1209600 300',
    ],
  },
]

describe('negative answers', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })
})
