/**
 * ANY (RFC 8482 §4.2): one RRset, over every transport.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ask } from './helpers/doh.ts'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(() =>
  seedZone(
    'any.test',
    `
@        3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
@        3600 IN NS   ns1
ns1      3600 IN A    192.0.2.53
multi     300 IN TXT  "t"
multi     300 IN MX   10 mx.any.test.
multi     200 IN AAAA 2001:db8::1
`
  )
)

describe('ANY', () => {
  runCases([
    {
      name: 'one RRset: the lowest type code',
      qname: 'multi.any.test',
      qtype: 'ANY',
      answer: ['multi.any.test. 300 MX 10 mx.any.test.'],
      cache: 'max-age=300',
    },
    {
      name: 'at the apex: NS',
      qname: 'any.test',
      qtype: 'ANY',
      answer: ['any.test. 3600 NS ns1.any.test.'],
    },
    {
      name: 'NXDOMAIN stays NXDOMAIN',
      qname: 'none.any.test',
      qtype: 'ANY',
      rcode: 'NXDOMAIN',
      authority: ['any.test. 300 SOA ns1.any.test. hostmaster.any.test. 1 7200 3600 1209600 300'],
    },
  ])

  it('class ANY in the question is answered like IN', async () => {
    const r = await ask('multi.any.test', 'TXT', { class: 255 })
    expect(r.answer).toEqual(['multi.any.test. 300 TXT "t"'])
    expect(r.message.question[0]?.class).toBe(255)
  })
})
