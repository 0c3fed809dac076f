/**
 * Negative answers: NXDOMAIN vs NODATA with the SOA in authority, negative TTL =
 * min(SOA TTL, SOA minimum) as max-age; REFUSED outside hosted zones, not cached.
 */
import { beforeAll, describe } from 'vitest'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(async () => {
  // SOA TTL below its minimum: the negative TTL is the SOA TTL.
  await seedZone(
    'neg.test',
    `
@       120 IN SOA ns1 hostmaster 9 7200 3600 1209600 3600
www     300 IN A   192.0.2.1
`
  )
  // SOA minimum below its TTL: the negative TTL is the minimum.
  await seedZone(
    'neg2.test',
    `
@      3600 IN SOA ns1 hostmaster 9 7200 3600 1209600 45
`
  )
})

const SOA = 'neg.test. 120 SOA ns1.neg.test. hostmaster.neg.test. 9 7200 3600 1209600 3600'
const SOA2 = 'neg2.test. 45 SOA ns1.neg2.test. hostmaster.neg2.test. 9 7200 3600 1209600 45'

describe('negative answers', () => {
  runCases([
    {
      name: 'NXDOMAIN with SOA, max-age = SOA TTL',
      qname: 'nope.neg.test',
      qtype: 'A',
      rcode: 'NXDOMAIN',
      authority: [SOA],
      cache: 'max-age=120',
    },
    {
      name: 'NODATA with SOA',
      qname: 'www.neg.test',
      qtype: 'MX',
      authority: [SOA],
      cache: 'max-age=120',
    },
    {
      name: 'NXDOMAIN, max-age = SOA minimum',
      qname: 'nope.neg2.test',
      qtype: 'A',
      rcode: 'NXDOMAIN',
      authority: [SOA2],
      cache: 'max-age=45',
    },
    {
      name: 'apex NODATA',
      qname: 'neg2.test',
      qtype: 'TXT',
      authority: [SOA2],
      cache: 'max-age=45',
    },
    {
      name: 'REFUSED outside hosted zones, not cached',
      qname: 'www.nowhere.invalid',
      qtype: 'A',
      rcode: 'REFUSED',
      aa: false,
      cache: 'no-store',
    },
  ])
})
