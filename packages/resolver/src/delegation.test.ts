import { describe, expect, it } from 'vitest'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const view = zones({
  'example.org': `
    @                 3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
    @                 3600 IN NS   ns1
    ns1               3600 IN A    192.0.2.53
    child             3600 IN NS   ns1.child
    child             3600 IN NS   ns.elsewhere.net.
    child             3600 IN DS   12345 13 2 3A4B5C6D
    ns1.child         3600 IN A    192.0.2.60
    ns1.child         3600 IN AAAA 2001:db8::60
    deep.below.child   300 IN A    192.0.2.61
    sib               3600 IN NS   ns1
    nods              3600 IN NS   ns1
    *                  300 IN A    192.0.2.100
  `,
})

const SOA = 'example.org 300 SOA ns1.example.org. hostmaster.example.org. 1 7200 3600 1209600 300'
const CHILD_NS = [
  'child.example.org 3600 NS ns1.child.example.org.',
  'child.example.org 3600 NS ns.elsewhere.net.',
]
const CHILD_GLUE = [
  'ns1.child.example.org 3600 A 192.0.2.60',
  'ns1.child.example.org 3600 AAAA 2001:db8::60',
]
const referral = { aa: false, authority: CHILD_NS, additional: CHILD_GLUE }

const cases: Case[] = [
  {
    name: 'the cut itself is a referral with glue',
    qname: 'child.example.org',
    qtype: 'A',
    ...referral,
  },
  {
    name: 'NS at the cut is a referral, not an answer',
    qname: 'child.example.org',
    qtype: 'NS',
    ...referral,
  },
  {
    name: 'a name below the cut is a referral',
    qname: 'www.child.example.org',
    qtype: 'A',
    ...referral,
  },
  {
    name: 'data below the cut is occluded',
    qname: 'deep.below.child.example.org',
    qtype: 'A',
    ...referral,
  },
  { name: 'glue names are occluded too', qname: 'ns1.child.example.org', qtype: 'A', ...referral },
  {
    name: 'the wildcard does not reach below a cut',
    qname: 'nothere.child.example.org',
    qtype: 'A',
    ...referral,
  },
  {
    name: 'DS at the cut is answered by the parent',
    qname: 'child.example.org',
    qtype: 'DS',
    answer: ['child.example.org 3600 DS 12345 13 2 3A4B5C6D'],
  },
  {
    name: 'DS at a cut without DS is NODATA from the parent',
    qname: 'nods.example.org',
    qtype: 'DS',
    authority: [SOA],
  },
  {
    name: 'DS below the cut is a referral',
    qname: 'x.child.example.org',
    qtype: 'DS',
    ...referral,
  },
  {
    name: 'sibling glue comes from the same zone',
    qname: 'sib.example.org',
    qtype: 'A',
    aa: false,
    authority: ['sib.example.org 3600 NS ns1.example.org.'],
    additional: ['ns1.example.org 3600 A 192.0.2.53'],
  },
  {
    name: 'apex NS is an authoritative answer',
    qname: 'example.org',
    qtype: 'NS',
    answer: ['example.org 3600 NS ns1.example.org.'],
  },
]

describe('delegations', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })
})
