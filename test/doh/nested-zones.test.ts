/**
 * Nested hosted zones: the longest suffix answers; the parent's cut gives DS.
 */
import { beforeAll, describe } from 'vitest'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(async () => {
  await seedZone(
    'nest.test',
    `
@        3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
www       300 IN A    192.0.2.1
sub      3600 IN NS   ns1.sub
sub      3600 IN DS   12345 13 2 3a4b5c6d
`
  )
  await seedZone(
    'sub.nest.test',
    `
@        3600 IN SOA  ns1 hostmaster 5 7200 3600 1209600 60
@        3600 IN NS   ns1
ns1       300 IN A    192.0.2.53
www       300 IN A    198.51.100.1
`
  )
})

describe('nested zones', () => {
  runCases([
    {
      name: 'the child zone answers its names',
      qname: 'www.sub.nest.test',
      qtype: 'A',
      answer: ['www.sub.nest.test. 300 A 198.51.100.1'],
    },
    {
      name: 'the parent answers its own names',
      qname: 'www.nest.test',
      qtype: 'A',
      answer: ['www.nest.test. 300 A 192.0.2.1'],
    },
    {
      name: 'the child apex answers NS',
      qname: 'sub.nest.test',
      qtype: 'NS',
      answer: ['sub.nest.test. 3600 NS ns1.sub.nest.test.'],
    },
    {
      name: 'the child SOA in negative answers',
      qname: 'none.sub.nest.test',
      qtype: 'A',
      rcode: 'NXDOMAIN',
      authority: [
        'sub.nest.test. 60 SOA ns1.sub.nest.test. hostmaster.sub.nest.test. 5 7200 3600 1209600 60',
      ],
      cache: 'max-age=60',
    },
  ])
})
