import { describe, expect, it } from 'vitest'
import { TYPE_CODES as T } from '@edgedns/dns-facts'
import { resolve } from './resolve.ts'
import { zones } from './test-helpers/zone.ts'

const view = zones({
  'example.org': `
    @     3600 IN SOA ns1 hostmaster 5 7200 3600 1209600 300
    www    300 IN A   192.0.2.1
  `,
})

const empty = { aa: false, answer: [], authority: [], additional: [] }

describe('questions answered without a zone lookup, as BIND 9.18 answers them over DoH', () => {
  it.each([
    ['CH', 3, 'REFUSED'],
    ['HS', 4, 'REFUSED'],
    ['reserved class 0', 0, 'FORMERR'],
    ['meta class NONE', 254, 'FORMERR'],
    ['unassigned class 2', 2, 'NOTIMP'],
    ['private-use class 65280', 65280, 'NOTIMP'],
  ])('class %s (%i) is %s', async (_, klass, rcode) => {
    for (const name of ['www.example.org', 'www.example.net']) {
      expect(await resolve(view, { name, type: 1, class: klass })).toEqual({ rcode, ...empty })
    }
  })

  it('class ANY is treated as IN', async () => {
    const r = await resolve(view, { name: 'www.example.org', type: 1, class: 255 })
    expect(r.answer.map((rr) => rr.rdata)).toEqual(['192.0.2.1'])
  })

  it.each([
    ['OPT', T.OPT, 'FORMERR'],
    ['TKEY', T.TKEY, 'FORMERR'],
    ['TSIG', T.TSIG, 'FORMERR'],
    ['the first meta type', 128, 'FORMERR'],
    ['an unassigned meta type', 200, 'FORMERR'],
    ['IXFR (no zone transfer over DoH)', T.IXFR, 'NOTIMP'],
    ['AXFR (no zone transfer over DoH)', T.AXFR, 'NOTIMP'],
    ['MAILB', T.MAILB, 'NOTIMP'],
    ['MAILA', T.MAILA, 'NOTIMP'],
  ])('QTYPE %s (%i) is %s, inside or outside hosted zones', async (_, type, rcode) => {
    for (const name of ['www.example.org', 'www.example.net']) {
      expect(await resolve(view, { name, type })).toEqual({ rcode, ...empty })
    }
  })

  it.each([
    ['type 0', 0],
    ['type 127, below the meta range', 127],
    ['ANY', T.ANY],
    ['URI, just above the meta range', 256],
    ['private-use type 65280', 65280],
  ])('%s is resolved like any data type', async (_, type) => {
    const r = await resolve(view, { name: 'www.example.org', type })
    expect(r).toMatchObject({ rcode: 'NOERROR', aa: true })
  })
})
