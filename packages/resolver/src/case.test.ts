import { describe, expect, it } from 'vitest'
import { resolve } from './resolve.ts'
import { zones } from './test-helpers/zone.ts'
import { ask, expected, type Case } from './test-helpers/table.ts'

const view = zones({
  'example.org': `
    @        3600 IN SOA   ns1 hostmaster 1 7200 3600 1209600 300
    www       300 IN A     192.0.2.1
    up        300 IN CNAME WWW.Example.ORG.
    *.wild    300 IN A     192.0.2.2
  `,
})

const cases: Case[] = [
  {
    name: 'matches a mixed-case name',
    qname: 'WwW.ExAmPlE.oRg',
    qtype: 'A',
    answer: ['www.example.org 300 A 192.0.2.1'],
  },
  {
    name: 'accepts a trailing dot',
    qname: 'WWW.EXAMPLE.ORG.',
    qtype: 'A',
    answer: ['www.example.org 300 A 192.0.2.1'],
  },
  {
    name: 'follows a mixed-case CNAME target, keeping its rdata as stored',
    qname: 'up.example.org',
    qtype: 'A',
    answer: ['up.example.org 300 CNAME WWW.Example.ORG.', 'www.example.org 300 A 192.0.2.1'],
  },
  {
    name: 'synthesises a wildcard owner in lowercase',
    qname: 'X.Wild.Example.Org',
    qtype: 'A',
    answer: ['x.wild.example.org 300 A 192.0.2.2'],
  },
]

describe('case-insensitive matching', () => {
  it.each(cases)('$name ($qname $qtype)', async (c) => {
    expect(await ask(view, c.qname, c.qtype)).toEqual(expected(c))
  })

  it('finds the zone for an upper-case apex', async () => {
    const r = await resolve(view, { name: 'EXAMPLE.ORG', type: 6 })
    expect(r.answer[0]?.name).toBe('example.org')
  })
})
