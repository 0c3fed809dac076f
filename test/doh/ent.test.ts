/**
 * Empty non-terminals: NODATA (NOERROR + SOA), never NXDOMAIN.
 */
import { beforeAll, describe } from 'vitest'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(() =>
  seedZone(
    'ent.test',
    `
@                 3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 900
_sip._tcp          300 IN SRV 10 5 5060 sip.ent.test.
a.b.c              300 IN A   192.0.2.1
`
  )
)

const SOA = 'ent.test. 900 SOA ns1.ent.test. hostmaster.ent.test. 1 7200 3600 1209600 900'

describe('empty non-terminals', () => {
  runCases([
    {
      name: 'ENT one level up is NODATA',
      qname: '_tcp.ent.test',
      qtype: 'SRV',
      authority: [SOA],
      cache: 'max-age=900',
    },
    { name: 'ENT two levels up is NODATA', qname: 'c.ent.test', qtype: 'A', authority: [SOA] },
    {
      name: 'the data below answers',
      qname: '_sip._tcp.ent.test',
      qtype: 'SRV',
      answer: ['_sip._tcp.ent.test. 300 SRV 10 5 5060 sip.ent.test.'],
    },
    {
      name: 'a sibling of the ENT is NXDOMAIN',
      qname: 'd.ent.test',
      qtype: 'A',
      rcode: 'NXDOMAIN',
      authority: [SOA],
    },
  ])
})
