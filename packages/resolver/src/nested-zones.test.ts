import { describe, expect, it } from 'vitest'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const view = zones({
  'example.org': `
    @           3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
    @           3600 IN NS  ns1
    ns1         3600 IN A   192.0.2.53
    sub         3600 IN NS  ns1.sub
    sub         3600 IN DS  111 13 2 AABB
    ns1.sub     3600 IN A   192.0.2.54
    www          300 IN A   192.0.2.1
    plain       3600 IN NS  ns1
  `,
  'sub.example.org': `
    @           3600 IN SOA ns1 hostmaster 2 7200 3600 1209600 120
    @           3600 IN NS  ns1
    ns1         3600 IN A   192.0.2.54
    www          300 IN A   192.0.2.2
  `,
  'nocut.example.org': `
    @           3600 IN SOA ns1 hostmaster 4 7200 3600 1209600 120
  `,
  'plain.example.org': `
    @           3600 IN SOA ns1 hostmaster 3 7200 3600 1209600 120
    www          300 IN A   192.0.2.3
  `,
})

const SUB_SOA =
  'sub.example.org 120 SOA ns1.sub.example.org. hostmaster.sub.example.org. 2 7200 3600 1209600 120'
const PARENT_SOA =
  'example.org 300 SOA ns1.example.org. hostmaster.example.org. 1 7200 3600 1209600 300'
const NOCUT_SOA =
  'nocut.example.org 120 SOA ns1.nocut.example.org. hostmaster.nocut.example.org. 4 7200 3600 1209600 120'

const cases: Case[] = [
  {
    name: 'the child answers its names',
    qname: 'www.sub.example.org',
    qtype: 'A',
    answer: ['www.sub.example.org 300 A 192.0.2.2'],
  },
  {
    name: 'the parent answers its own names',
    qname: 'www.example.org',
    qtype: 'A',
    answer: ['www.example.org 300 A 192.0.2.1'],
  },
  {
    name: 'the child answers NS at its apex (no referral)',
    qname: 'sub.example.org',
    qtype: 'NS',
    answer: ['sub.example.org 3600 NS ns1.sub.example.org.'],
  },
  {
    name: 'glue names inside the child come from the child',
    qname: 'ns1.sub.example.org',
    qtype: 'A',
    answer: ['ns1.sub.example.org 3600 A 192.0.2.54'],
  },
  {
    name: 'NXDOMAIN uses the child SOA',
    qname: 'nope.sub.example.org',
    qtype: 'A',
    rcode: 'NXDOMAIN',
    authority: [SUB_SOA],
  },
  {
    name: 'DS at the child apex comes from the parent',
    qname: 'sub.example.org',
    qtype: 'DS',
    answer: ['sub.example.org 3600 DS 111 13 2 AABB'],
  },
  {
    name: 'DS missing at the parent cut is NODATA from the parent',
    qname: 'plain.example.org',
    qtype: 'DS',
    authority: [PARENT_SOA],
  },
  {
    name: 'DS at a child apex the parent does not cut is NODATA from the child',
    qname: 'nocut.example.org',
    qtype: 'DS',
    authority: [NOCUT_SOA],
  },
  {
    name: 'longest zone wins even where the parent has NS',
    qname: 'www.plain.example.org',
    qtype: 'A',
    answer: ['www.plain.example.org 300 A 192.0.2.3'],
  },
]

describe('nested zones', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })
})
