/**
 * Rate limits through the Workers rate-limiting bindings (wrangler.toml): failed authentications
 * per client address, and full rebuilds per zone. Over the limit: 429, code 971, `retry-after`.
 */
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, createZone, DEV_TOKEN } from './helpers.ts'

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
    body: (await res.json()) as any,
  }
}

describe('rate limits', () => {
  it('refuses an address with 429 once its failed authentications exceed the limit, valid tokens included; other addresses are unaffected', async () => {
    const address = '203.0.113.77'
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++)
      expect((await fromAddress(address, `wrong-${i}`)).status).toBe(403)
    const limited = await fromAddress(address, 'wrong-again')
    expect(limited.status).toBe(429)
    expect(limited.retryAfter).toBe('60')
    expect(limited.body.errors[0].code).toBe(971)
    expect((await fromAddress(address, DEV_TOKEN)).status).toBe(429)
    expect((await fromAddress('203.0.113.78', DEV_TOKEN)).status).toBe(200)
  })

  it('successful authentications do not count', async () => {
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE + 5; i++)
      expect((await fromAddress('203.0.113.90', DEV_TOKEN)).status).toBe(200)
  })

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
