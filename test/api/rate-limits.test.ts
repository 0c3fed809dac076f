/**
 * Rate limits through the Workers rate-limiting bindings (wrangler.toml): failed authentications
 * per client address, full rebuilds per zone, and requests per API token. Over the limit: 429,
 * code 971, `retry-after`.
 */
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT, DEV_TOKEN } from './helpers.ts'

/** Limits of wrangler.toml's [[ratelimits]] bindings. */
const AUTH_FAILURES_PER_MINUTE = 20
const REBUILDS_PER_MINUTE = 5

async function fromAddress(address: string, token: string) {
  const res = await (exports as any).default.fetch('http://localhost/client/v4/zones', {
    headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': address },
  })
  return {
    status: res.status as number,
    retryAfter: res.headers.get('retry-after') as string | null,
    ratelimit: res.headers.get('ratelimit') as string | null,
    policy: res.headers.get('ratelimit-policy') as string | null,
    body: (await res.json()) as any,
  }
}

/**
 * Local rate limiters count in windows aligned to the wall-clock minute: a test that must stay in
 * one window waits for the next one when fewer than `needMs` are left of this one.
 */
async function freshWindow(needMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50))
}

async function readToken(account: string): Promise<{ id: string; value: string }> {
  const res = await api('POST', `/accounts/${account}/tokens`, {
    name: 'reader',
    policies: [
      {
        permission_groups: [{ name: 'Zone Read' }],
        resources: { [`com.cloudflare.api.account.${account}`]: '*' },
      },
    ],
  })
  expect(res.status).toBe(200)
  return res.body.result
}

async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `limits-${Date.now()}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

describe('failed authentications per address', () => {
  it(
    'answers 429 to invalid tokens from an address past its failed-authentication budget, and never refuses a valid token from it',
    { timeout: 60_000 },
    async () => {
      await freshWindow(10_000)
      const address = '203.0.113.77'
      const stored = await readToken(DEFAULT_ACCOUNT)
      for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++)
        expect((await fromAddress(address, `wrong-${i}`)).status).toBe(403)
      const limited = await fromAddress(address, 'wrong-again')
      expect(limited.status).toBe(429)
      expect(limited.retryAfter).toBe('60')
      expect(limited.body.errors[0]!.code).toBe(971)
      // Valid credentials behind the same address (an office NAT) keep working.
      expect((await fromAddress(address, DEV_TOKEN)).status).toBe(200)
      expect((await fromAddress(address, stored.value)).status).toBe(200)
      // … while invalid ones are still refused with 429, not let through to a 403.
      const again = await fromAddress(address, 'wrong-once-more')
      expect(again.status).toBe(429)
      expect(again.retryAfter).toBe('60')
      expect((await fromAddress('203.0.113.78', DEV_TOKEN)).status).toBe(200)
      expect((await fromAddress('203.0.113.78', 'wrong')).status).toBe(403)
    }
  )

  it('does not count successful authentications', async () => {
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE + 5; i++)
      expect((await fromAddress('203.0.113.90', DEV_TOKEN)).status).toBe(200)
  })
})

describe('full rebuilds per zone', () => {
  it('limits full rebuilds per zone', async () => {
    const busy = await createZone('rebuilds')
    for (let i = 0; i < REBUILDS_PER_MINUTE; i++)
      expect((await api('POST', `/zones/${busy.id}/propagation/rebuild`)).status).toBe(200)
    const limited = await api('POST', `/zones/${busy.id}/propagation/rebuild`)
    expect(limited.status).toBe(429)
    expect(limited.body.errors[0]?.code).toBe(971)
    expect(limited.headers.get('retry-after')).toBe('60')
    const other = await createZone('rebuilds')
    expect((await api('POST', `/zones/${other.id}/propagation/rebuild`)).status).toBe(200)
  })
})

describe('requests per API token', () => {
  it(
    "limits each token to its account's requests per 5 minutes, a fifth of them per minute: 429 with retry-after and ratelimit headers",
    { timeout: 60_000 },
    async () => {
      const account = await newAccount()
      const set = await api('PUT', `/accounts/${account}`, { settings: { api_rate_limit: 300 } })
      expect(set.status).toBe(200)
      expect(set.body.result.settings.api_rate_limit).toBe(300)
      const busy = await readToken(account)
      const calm = await readToken(account)
      await freshWindow(15_000)
      for (let i = 0; i < 60; i++) {
        const res = await fromAddress('198.51.100.10', busy.value)
        expect(res.status, `request ${i + 1}`).toBe(200)
        expect(res.policy).toBe('"default";q=60;w=60')
      }
      const limited = await fromAddress('198.51.100.10', busy.value)
      expect(limited.status).toBe(429)
      expect(limited.body.errors[0]!.code).toBe(971)
      expect(limited.body.errors[0]!.message).toMatch(/300 requests per 5 minutes/)
      expect(limited.retryAfter).toBe('60')
      expect(limited.ratelimit).toBe('"default";r=0;t=60')
      expect(limited.policy).toBe('"default";q=60;w=60')
      // Per token, not per account or address; the local dev token is not limited.
      expect((await fromAddress('198.51.100.10', calm.value)).status).toBe(200)
      const dev = await fromAddress('198.51.100.10', DEV_TOKEN)
      expect(dev.status).toBe(200)
      expect(dev.policy).toBeNull()
    }
  )

  it(
    "defaults to Cloudflare's 1,200 requests per 5 minutes (240 a minute)",
    { timeout: 60_000 },
    async () => {
      const account = await newAccount()
      const got = await api('GET', `/accounts/${account}`)
      expect(got.body.result.settings.api_rate_limit).toBe(1200)
      const token = await readToken(account)
      await freshWindow(20_000)
      for (let i = 0; i < 240; i++) {
        const res = await fromAddress('198.51.100.11', token.value)
        expect(res.status, `request ${i + 1}`).toBe(200)
      }
      const limited = await fromAddress('198.51.100.11', token.value)
      expect(limited.status).toBe(429)
      expect(limited.policy).toBe('"default";q=240;w=60')
    }
  )

  it('takes the limit from the account setting an administrator sets, in steps of 300', async () => {
    const account = await newAccount()
    const bad = await api('PUT', `/accounts/${account}`, { settings: { api_rate_limit: 1000 } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0]!.message).toMatch(/multiple of 300/)
    const ok = await api('PUT', `/accounts/${account}`, { settings: { api_rate_limit: 2400 } })
    expect(ok.body.result.settings.api_rate_limit).toBe(2400)
    const token = await readToken(account)
    expect((await fromAddress('198.51.100.12', token.value)).policy).toBe('"default";q=480;w=60')
    // A token cannot raise its own account's limit.
    const own = await api(
      'PUT',
      `/accounts/${account}`,
      { settings: { api_rate_limit: 60000 } },
      token.value
    )
    expect(own.status).toBe(403)
    expect(own.headers.get('ratelimit-policy')).toBe('"default";q=480;w=60')
    const reset = await api('PUT', `/accounts/${account}`, { settings: { api_rate_limit: null } })
    expect(reset.body.result.settings.api_rate_limit).toBe(1200)
  })
})
