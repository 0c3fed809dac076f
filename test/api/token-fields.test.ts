/**
 * The token object as Cloudflare shapes it (not_before, status `expired`, last_used_on), and the
 * validity window a create may ask for.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

const account = (id: string) => `com.cloudflare.api.account.${id}`
const zone = (id: string) => `com.cloudflare.api.account.zone.${id}`
const ZONE_ID = '0123456789abcdef0123456789abcdef'
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `contract-${Date.now()}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

const dnsReadOn = (resource: string) => [
  { permission_groups: [{ name: 'DNS Read' }], resources: { [resource]: '*' } },
]

function create(policies: unknown[], extra: Record<string, unknown> = {}) {
  return api('POST', '/user/tokens', { name: 'contract', policies, ...extra })
}

/** The 400 a create answers, and its message. */
async function refused(policies: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await create(policies, extra)
  expectError(res, 400, 1004)
  return res.body.errors[0]!.message
}

describe('token fields', () => {
  it('returns not_before, on create, get and list', async () => {
    const notBefore = '2099-01-01T00:00:00Z'
    const res = await create(dnsReadOn(zone(ZONE_ID)), { not_before: notBefore })
    expect(res.body.result.not_before).toBe(notBefore)
    const id = res.body.result.id
    expect((await api('GET', `/user/tokens/${id}`)).body.result.not_before).toBe(notBefore)
    const listed = (await api('GET', '/user/tokens?per_page=50')).body.result
    expect(listed.find((t: any) => t.id === id).not_before).toBe(notBefore)
  })

  it('lists a token whose expires_on has passed as expired', async () => {
    const res = await create(dnsReadOn(zone(ZONE_ID)), { expires_on: inAnHour() })
    const id = res.body.result.id
    expect(res.body.result.status).toBe('active')
    await env.DB.prepare(`UPDATE api_tokens SET expires_on = '2020-01-01T00:00:00Z' WHERE id = ?1`)
      .bind(id)
      .run()
    expect((await api('GET', `/user/tokens/${id}`)).body.result.status).toBe('expired')
    const listed = (await api('GET', '/user/tokens?per_page=50')).body.result
    expect(listed.find((t: any) => t.id === id).status).toBe('expired')
  })

  it('refuses expires_on in the past, or not later than not_before, naming the field', async () => {
    const past = await refused(dnsReadOn(zone(ZONE_ID)), { expires_on: '2020-01-01T00:00:00Z' })
    expect(past).toMatch(/^expires_on: 2020-01-01T00:00:00Z is in the past/)
    const early = await refused(dnsReadOn(zone(ZONE_ID)), {
      not_before: '2099-01-02T00:00:00Z',
      expires_on: '2099-01-01T00:00:00Z',
    })
    expect(early).toMatch(/^expires_on: .* is not later than not_before 2099-01-02T00:00:00Z/)
    const ok = await create(dnsReadOn(zone(ZONE_ID)), {
      not_before: '2099-01-01T00:00:00Z',
      expires_on: '2099-01-02T00:00:00Z',
    })
    expect(ok.status).toBe(200)
  })

  it('sets last_used_on when the token authenticates, in the background', async () => {
    const res = await create(dnsReadOn(zone(ZONE_ID)))
    const { id, value } = res.body.result
    expect(res.body.result.last_used_on).toBeUndefined()
    const before = Date.now()
    expect((await api('GET', '/user/tokens/verify', undefined, value)).status).toBe(200)
    let lastUsed: string | undefined
    for (let i = 0; i < 50 && lastUsed === undefined; i++) {
      lastUsed = (await api('GET', `/user/tokens/${id}`)).body.result.last_used_on
      if (lastUsed === undefined) await new Promise((r) => setTimeout(r, 20))
    }
    expect(lastUsed).toBeDefined()
    expect(Date.parse(lastUsed!)).toBeGreaterThanOrEqual(before - 1000)
    // Within the hour the isolate does not write it again.
    await env.DB.prepare('UPDATE api_tokens SET last_used_on = NULL WHERE id = ?1').bind(id).run()
    expect((await api('GET', '/user/tokens/verify', undefined, value)).status).toBe(200)
    await new Promise((r) => setTimeout(r, 100))
    expect((await api('GET', `/user/tokens/${id}`)).body.result.last_used_on).toBeUndefined()
  })
})
