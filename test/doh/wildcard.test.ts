/**
 * Wildcards (RFC 4592) through HTTP: synthesis at the query name, blocking by existing names and
 * ENTs, closest encloser only.
 */
import { beforeAll, describe } from 'vitest'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(() =>
  seedZone(
    'wild.test',
    `
@            3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
*             120 IN A    192.0.2.100
*             120 IN TXT  "wild"
host          300 IN A    192.0.2.1
*.sub         60 IN MX    10 mail.wild.test.
deep.ent.x    300 IN A    192.0.2.2
`
  )
)

const SOA = 'wild.test. 300 SOA ns1.wild.test. hostmaster.wild.test. 1 7200 3600 1209600 300'

describe('wildcard', () => {
  runCases([
    {
      name: 'synthesised at the query name',
      qname: 'nothing.wild.test',
      qtype: 'A',
      answer: ['nothing.wild.test. 120 A 192.0.2.100'],
      cache: 'max-age=120',
    },
    {
      name: 'several labels below the wildcard',
      qname: 'a.b.c.wild.test',
      qtype: 'TXT',
      answer: ['a.b.c.wild.test. 120 TXT "wild"'],
    },
    {
      name: 'wildcard NODATA for a missing type',
      qname: 'nothing.wild.test',
      qtype: 'AAAA',
      authority: [SOA],
      cache: 'max-age=300',
    },
    {
      name: 'an existing name blocks the wildcard',
      qname: 'host.wild.test',
      qtype: 'TXT',
      authority: [SOA],
    },
    { name: 'an ENT blocks the wildcard', qname: 'ent.x.wild.test', qtype: 'A', authority: [SOA] },
    {
      name: 'closest encloser wildcard (*.sub)',
      qname: 'q.sub.wild.test',
      qtype: 'MX',
      answer: ['q.sub.wild.test. 60 MX 10 mail.wild.test.'],
    },
    {
      name: 'the wildcard owner itself',
      qname: '*.wild.test',
      qtype: 'A',
      answer: ['*.wild.test. 120 A 192.0.2.100'],
    },
  ])
})
