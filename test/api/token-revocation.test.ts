import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import apiTokensText from '../../docs/api-tokens.md?raw'
import rateLimitsText from '../../docs/rate-limits.md?raw'
import readmeText from '../../README.md?raw'
import {
  TOKEN_CACHE_ENTRIES,
  TOKEN_MAX_AGE_MS,
  TOKEN_REFRESH_AFTER_MS,
} from '../../workers/api/src/auth/verified-tokens.ts'
import { api, DEFAULT_ACCOUNT, expectError } from './helpers.ts'

async function mint(): Promise<{ id: string; value: string }> {
  const res = await api('POST', `/accounts/${DEFAULT_ACCOUNT}/tokens`, {
    name: 'revocation',
    policies: [
      {
        permission_groups: [{ name: 'DNS Read' }],
        resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
      },
    ],
  })
  expect(res.status).toBe(200)
  return { id: res.body.result.id, value: res.body.result.value }
}

/** Revokes a token the way another isolate's delete would: this isolate is not told. */
async function revokeElsewhere(id: string): Promise<void> {
  await env.DB.prepare('DELETE FROM api_tokens WHERE id = ?1').bind(id).run()
}

describe('revocation delay of a verified token', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('refuses a deleted token at once in the isolate that deleted it', async () => {
    const token = await mint()
    expect((await api('GET', '/user/tokens/verify', undefined, token.value)).status).toBe(200)
    expect((await api('DELETE', `/user/tokens/${token.id}`)).status).toBe(200)
    expectError(await api('GET', '/user/tokens/verify', undefined, token.value), 403, 9109)
  })

  it('lets a token revoked elsewhere pass for less than the maximum age, and no longer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    const token = await mint()
    expect((await api('GET', '/user/tokens/verify', undefined, token.value)).status).toBe(200)
    await revokeElsewhere(token.id)
    vi.setSystemTime(start + TOKEN_MAX_AGE_MS - 1_000)
    expect((await api('GET', '/zones', undefined, token.value)).status).toBe(200)
    vi.setSystemTime(start + TOKEN_MAX_AGE_MS)
    expectError(await api('GET', '/zones', undefined, token.value), 403, 9109)
  })

  it('applies an account rate limit changed in this isolate at once', async () => {
    const token = await mint()
    const before = await api('GET', '/user/tokens/verify', undefined, token.value)
    expect(before.headers.get('ratelimit-policy')).toContain('q=240')
    const put = await api('PUT', `/accounts/${DEFAULT_ACCOUNT}`, {
      settings: { api_rate_limit: 2_400 },
    })
    expect(put.status).toBe(200)
    const after = await api('GET', '/user/tokens/verify', undefined, token.value)
    expect(after.headers.get('ratelimit-policy')).toContain('q=480')
  })
})

/** Markdown prose with its line breaks as spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ')

describe('the revocation delay the docs state', () => {
  const maxAge = `${TOKEN_MAX_AGE_MS / 1000} s`
  const refresh = `${TOKEN_REFRESH_AFTER_MS / 1000} s`

  it('is the cache’s maximum age, with its refresh age and size', () => {
    const apiTokensDoc = flat(apiTokensText)
    expect(apiTokensDoc).toContain(`**Revocation delay: ${maxAge}.**`)
    expect(apiTokensDoc).toContain(`| under ${refresh} | uses the copy; no database read |`)
    expect(apiTokensDoc).toContain(`| ${refresh} to ${maxAge} | uses the copy, and starts one read`)
    expect(apiTokensDoc).toContain(`| ${maxAge} or more, or no copy | waits for a read`)
    expect(apiTokensDoc).toContain(`at most ${TOKEN_CACHE_ENTRIES.toLocaleString('en-US')} tokens`)
    expect(flat(readmeText)).toContain(`within **${maxAge}** everywhere else`)
    expect(flat(rateLimitsText)).toContain(`for up to ${maxAge}`)
  })
})
