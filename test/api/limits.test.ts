import { describe, expect, it } from 'vitest'
import { api, createZone, expectError } from './helpers.ts'

describe('request limits', () => {
  it('answers 413 in the envelope for a body over the limit, and changes nothing', async () => {
    const z = await createZone()
    const big = JSON.stringify({ posts: [{ type: 'TXT', name: 'big', content: 'x'.repeat(21 * 1024 * 1024) }] })
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, undefined, 'dev-token', big)
    expectError(res, 413, 10413)
    const list = await api('GET', `/zones/${z.id}/dns_records`)
    expect(list.body.result).toEqual([])
  })

  it('rejects a TXT record whose wire form would exceed 4096 octets', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, { type: 'TXT', name: 't', content: 'y'.repeat(5000) })
    expect(res.status).toBe(400)
    expect(res.body.errors[0]!.code).toBe(9135)
  })

  it('splits a long TXT value into 255-octet strings', async () => {
    const z = await createZone()
    const res = await api('POST', `/zones/${z.id}/dns_records`, { type: 'TXT', name: 't', content: 'z'.repeat(600) })
    expect(res.status).toBe(200)
    expect(res.body.result.content).toBe(`"${'z'.repeat(255)}" "${'z'.repeat(255)}" "${'z'.repeat(90)}"`)
  })
})

describe('accounts', () => {
  it('lets an admin raise an account batch limit and rejects values above the ceiling', async () => {
    const acct = (await api('POST', '/accounts', { name: 'limits' })).body.result
    expect((await api('PUT', `/accounts/${acct.id}`, { settings: { max_dns_batch_changes: 5000 } })).body.result.settings.max_dns_batch_changes).toBe(5000)
    expectError(await api('PUT', `/accounts/${acct.id}`, { settings: { max_dns_batch_changes: 100_001 } }), 400, 9000)
    expectError(await api('GET', '/accounts/ffffffffffffffffffffffffffffffff'), 404, 1003)
  })
})
