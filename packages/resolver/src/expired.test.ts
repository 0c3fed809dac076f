import { describe, expect, it } from 'vitest'
import { resolve } from './resolve.ts'
import { zones } from './test-helpers/zone.ts'

const view = zones({
  'secondary.test': `
    @     3600 IN SOA ns1 hostmaster 5 7200 900 8 300
    www    300 IN A   192.0.2.9
  `,
  'live.test': `
    @     3600 IN SOA ns1 hostmaster 5 7200 900 1209600 300
    alias  300 IN CNAME www.secondary.test.
  `,
})

describe('an expired secondary zone', () => {
  it('answers SERVFAIL for every name in it, existing or not, and for chains into it', async () => {
    view.zones.get('secondary.test')!.meta.expired = true
    for (const [name, type] of [
      ['www.secondary.test', 1],
      ['nope.secondary.test', 1],
      ['secondary.test', 6],
    ] as const)
      expect((await resolve(view, { name, type })).rcode).toBe('SERVFAIL')
    expect((await resolve(view, { name: 'alias.live.test', type: 1 })).rcode).toBe('SERVFAIL')
  })

  it('answers again once it is no longer expired', async () => {
    delete view.zones.get('secondary.test')!.meta.expired
    const r = await resolve(view, { name: 'www.secondary.test', type: 1 })
    expect(r.rcode).toBe('NOERROR')
    expect(r.answer).toHaveLength(1)
  })
})
