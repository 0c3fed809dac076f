/**
 * Delegations below the apex: referral with AA clear, NS in authority, glue in additional, and
 * occlusion of names below the cut.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { askBoth } from './helpers/doh.ts'
import { seedZone } from './helpers/seed.ts'
import { runCases } from './helpers/table.ts'

beforeAll(() =>
  seedZone(
    'deleg.test',
    `
@              3600 IN SOA  ns1 hostmaster 1 7200 3600 1209600 300
@              3600 IN NS   ns1
ns1            3600 IN A    192.0.2.53
child          1800 IN NS   ns1.child
child          1800 IN NS   ns.elsewhere.net.
child          1800 IN DS   2371 13 2 ${'AB'.repeat(32)}
ns1.child       900 IN A    192.0.2.60
hidden.child    300 IN A    192.0.2.61
${Array.from({ length: 20 }, (_, i) => `big 3600 IN NS ns${i}.big\nns${i}.big 3600 IN A 192.0.2.${100 + i}`).join('\n')}
`
  )
)

const referral = {
  aa: false,
  authority: [
    'child.deleg.test. 1800 NS ns1.child.deleg.test.',
    'child.deleg.test. 1800 NS ns.elsewhere.net.',
  ],
  additional: ['ns1.child.deleg.test. 900 A 192.0.2.60'],
  cache: 'max-age=900',
}

describe('delegation', () => {
  runCases([
    { name: 'the cut is a referral with glue', qname: 'child.deleg.test', qtype: 'A', ...referral },
    { name: 'NS at the cut is a referral', qname: 'child.deleg.test', qtype: 'NS', ...referral },
    {
      name: 'names below the cut are occluded',
      qname: 'hidden.child.deleg.test',
      qtype: 'A',
      ...referral,
    },
    {
      name: 'apex NS is authoritative',
      qname: 'deleg.test',
      qtype: 'NS',
      answer: ['deleg.test. 3600 NS ns1.deleg.test.'],
      cache: 'max-age=3600',
    },
  ])

  it('answers DO=1 from this unsigned zone with NS and glue only: no DS (RFC 4035 §3.1.4)', async () => {
    for (const [qname, qtype] of [
      ['hidden.child.deleg.test', 'A'],
      ['child.deleg.test', 'NS'],
    ] as const) {
      const r = await askBoth(qname, qtype, { edns: { do: true } })
      const q = `${qname} ${qtype}`
      expect({ q, aa: r.message.aa, authority: [...r.authority].sort() }).toEqual({
        q,
        aa: false,
        authority: [...referral.authority].sort(),
      })
      expect(r.additional).toEqual(referral.additional)
    }
    // The DS itself is the parent's data, answered when asked for.
    const ds = await askBoth('child.deleg.test', 'DS', { edns: { do: true } })
    expect(ds.answer).toEqual([`child.deleg.test. 1800 DS 2371 13 2 ${'ab'.repeat(32)}`])
  })

  it('carries the glue of all 20 in-domain name servers, untruncated (RFC 9471)', async () => {
    const r = await askBoth('www.big.deleg.test', 'A')
    expect(r.message.aa).toBe(false)
    expect(r.message.tc).toBe(false)
    expect(r.authority).toHaveLength(20)
    expect(r.additional.sort()).toEqual(
      Array.from(
        { length: 20 },
        (_, i) => `ns${i}.big.deleg.test. 3600 A 192.0.2.${100 + i}`
      ).sort()
    )
  })
})
