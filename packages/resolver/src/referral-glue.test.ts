import { describe, expect, it } from 'vitest'
import { MAX_GLUE_LOOKUPS } from './referral.ts'
import { resolve } from './resolve.ts'
import { zones } from './test-helpers/zone.ts'

/** A delegation to `count` in-domain name servers ns<i>.big, each with an A and an AAAA. */
function bigDelegation(count: number): string {
  const lines = ['@ 3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300']
  for (let i = 1; i <= count; i++) {
    lines.push(`big 3600 IN NS ns${i}.big`)
    lines.push(`ns${i}.big 3600 IN A 192.0.${Math.floor(i / 250)}.${i % 250}`)
    lines.push(`ns${i}.big 3600 IN AAAA 2001:db8::${i.toString(16)}`)
  }
  lines.push('big 3600 IN NS ns.elsewhere.net.')
  lines.push('sibling 3600 IN A 192.0.2.200')
  lines.push('big 3600 IN NS sibling')
  return lines.join('\n')
}

describe('referral glue (RFC 9471)', () => {
  it('carries the glue of every in-domain and sibling name server, well past 13', async () => {
    const view = zones({ 'example.org': bigDelegation(40) })
    const r = await resolve(view, { name: 'www.big.example.org', type: 1 })
    expect(r.rcode).toBe('NOERROR')
    expect(r.aa).toBe(false)
    expect(r.authority).toHaveLength(42)
    const glued = new Set(r.additional.map((rr) => rr.name))
    expect(glued.size).toBe(41)
    for (let i = 1; i <= 40; i++) expect(glued.has(`ns${i}.big.example.org`)).toBe(true)
    expect(glued.has('sibling.example.org')).toBe(true)
    expect(r.additional).toHaveLength(81)
    expect(r.tc).toBeUndefined()
  })

  it('marks the referral truncated when its name servers exceed the glue lookup bound', async () => {
    const view = zones({ 'example.org': bigDelegation(MAX_GLUE_LOOKUPS + 1) })
    const r = await resolve(view, { name: 'big.example.org', type: 1 })
    expect(r.tc).toBe(true)
    expect(r.authority).toHaveLength(MAX_GLUE_LOOKUPS + 3)
    expect(new Set(r.additional.map((rr) => rr.name)).size).toBe(MAX_GLUE_LOOKUPS)
  })
})
