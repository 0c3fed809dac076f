/**
 * CNAME chains through HTTP: followed inside hosted zones and across them, ended outside,
 * a loop is SERVFAIL; Cache-Control is the smallest TTL of the whole chain.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ask } from './helpers/doh.ts'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(async () => {
  await seedZone(
    'cname.test',
    `
@          3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
www         600 IN CNAME web
web          60 IN CNAME host
host       3600 IN A     192.0.2.1
out         300 IN CNAME www.example.net.
cross       300 IN CNAME target.cname-other.test.
dangling    300 IN CNAME missing
loop1       300 IN CNAME loop2
loop2       300 IN CNAME loop1
`
  )
  await seedZone(
    'cname-other.test',
    `
target      120 IN A     198.51.100.7
`
  )
})

const SOA = 'cname.test. 300 SOA ns1.cname.test. hostmaster.cname.test. 1 7200 3600 1209600 300'

describe('CNAME', () => {
  runCases([
    {
      name: 'chain followed to the address; max-age is the smallest TTL',
      qname: 'www.cname.test',
      qtype: 'A',
      answer: [
        'www.cname.test. 600 CNAME web.cname.test.',
        'web.cname.test. 60 CNAME host.cname.test.',
        'host.cname.test. 3600 A 192.0.2.1',
      ],
      cache: 'max-age=60',
    },
    {
      name: 'a CNAME question gets the CNAME only',
      qname: 'www.cname.test',
      qtype: 'CNAME',
      answer: ['www.cname.test. 600 CNAME web.cname.test.'],
      cache: 'max-age=600',
    },
    {
      name: 'target outside hosted zones ends the chain',
      qname: 'out.cname.test',
      qtype: 'A',
      answer: ['out.cname.test. 300 CNAME www.example.net.'],
    },
    {
      name: 'followed into another hosted zone',
      qname: 'cross.cname.test',
      qtype: 'A',
      answer: [
        'cross.cname.test. 300 CNAME target.cname-other.test.',
        'target.cname-other.test. 120 A 198.51.100.7',
      ],
      cache: 'max-age=120',
    },
    {
      name: 'dangling in-zone target is NXDOMAIN with the chain',
      qname: 'dangling.cname.test',
      qtype: 'A',
      rcode: 'NXDOMAIN',
      answer: ['dangling.cname.test. 300 CNAME missing.cname.test.'],
      authority: [SOA],
    },
    {
      name: 'a loop is SERVFAIL with the chain, not cached',
      qname: 'loop1.cname.test',
      qtype: 'A',
      rcode: 'SERVFAIL',
      cache: 'no-store',
      answer: [
        'loop1.cname.test. 300 CNAME loop2.cname.test.',
        'loop2.cname.test. 300 CNAME loop1.cname.test.',
      ],
    },
  ])

  it('keeps the chain in order on the wire', async () => {
    const r = await ask('www.cname.test', 'A')
    expect(r.message.answer.map((rr) => rr.type)).toEqual(['CNAME', 'CNAME', 'A'])
  })
})
