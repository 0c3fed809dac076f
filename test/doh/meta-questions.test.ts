/**
 * Questions no zone can answer get BIND 9.18's rcodes, with the question and OPT echoed and no
 * caching: CH/HS class → REFUSED, meta QTYPEs (TKEY, TSIG, OPT, 128–250) → FORMERR, zone
 * transfers and MAILA/MAILB → NOTIMP.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { TYPE_CODES as T } from '../../packages/dns-facts/src/index.ts'
import { ask, askJson } from './helpers/doh.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() =>
  seedZone(
    'meta.test',
    `
@      3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
www     300 IN A   192.0.2.1
`
  )
)

describe('questions answered without a zone', () => {
  it.each([
    ['CH', 3],
    ['HS', 4],
  ])('class %s is REFUSED, AA clear, not cached', async (_, qclass) => {
    for (const method of ['GET', 'POST'] as const) {
      const r = await ask('www.meta.test', 'A', { method, class: qclass, id: 0x4242, edns: {} })
      expect(r.rcode).toBe('REFUSED')
      expect(r.message).toMatchObject({ id: 0x4242, aa: false, answer: [], authority: [] })
      expect(r.message.question).toEqual([
        { name: 'www.meta.test.', type: 'A', typeCode: 1, class: qclass },
      ])
      expect(r.message.opt).not.toBeNull()
      expect(r.cacheControl).toBe('no-store')
    }
  })

  it.each([
    ['TKEY', T.TKEY, 'FORMERR'],
    ['TSIG', T.TSIG, 'FORMERR'],
    ['OPT', T.OPT, 'FORMERR'],
    ['TYPE128', 128, 'FORMERR'],
    ['AXFR', T.AXFR, 'NOTIMP'],
    ['IXFR', T.IXFR, 'NOTIMP'],
    ['MAILA', T.MAILA, 'NOTIMP'],
  ])('QTYPE %s (%i) is %s with the question echoed, not cached', async (_, qtype, rcode) => {
    const r = await ask('www.meta.test', qtype, { edns: {} })
    expect(r.rcode).toBe(rcode)
    expect(r.message).toMatchObject({ aa: false, answer: [], authority: [], additional: [] })
    expect(r.message.question).toHaveLength(1)
    expect(r.message.opt).not.toBeNull()
    expect(r.cacheControl).toBe('no-store')
  })

  it('the JSON API gives the same status for TSIG (type=250)', async () => {
    const j = await askJson('www.meta.test', '250')
    expect(j.status).toBe(200)
    expect(j.body.Status).toBe(1)
  })
})
