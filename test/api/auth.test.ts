import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT, expectError } from './helpers.ts'

async function token(policies: unknown[]): Promise<string> {
  const res = await api('POST', '/user/tokens', { name: 'scoped', policies })
  expect(res.status).toBe(200)
  expect(res.body.result.value).toBeTypeOf('string')
  return res.body.result.value
}

describe('authentication and tokens', () => {
  it('answers 403 without a token and for an unknown token', async () => {
    expectError(await api('GET', '/zones', undefined, null), 403, 10000)
    expectError(await api('GET', '/zones', undefined, 'nope'), 403, 9109)
  })

  it("reports the token lookup's own time in Server-Timing", async () => {
    const t = await token([
      {
        permission_groups: [{ name: 'DNS Read' }],
        resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
      },
    ])
    const res = await api('GET', '/user/tokens/verify', undefined, t)
    expect(res.headers.get('server-timing')).toMatch(/^auth;dur=\d+\.\d$/)
  })

  it('answers 400 6003 for a malformed Authorization header', async () => {
    expectError(await api('GET', '/zones', undefined, 'two words'), 400, 6003)
  })

  it('verifies a token', async () => {
    const t = await token([
      {
        permission_groups: [{ name: 'DNS Read' }],
        resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
      },
    ])
    const res = await api('GET', '/user/tokens/verify', undefined, t)
    expect(res.body.result.status).toBe('active')
  })

  it('scopes a token to chosen zones and permissions', async () => {
    const mine = await createZone()
    const other = await createZone()
    const t = await token([
      {
        permission_groups: [{ name: 'DNS Write' }],
        resources: { [`com.cloudflare.api.account.zone.${mine.id}`]: '*' },
      },
    ])
    const ok = await api(
      'POST',
      `/zones/${mine.id}/dns_records`,
      { type: 'A', name: 'a', content: '192.0.2.1' },
      t
    )
    expect(ok.status).toBe(200)
    expectError(
      await api(
        'POST',
        `/zones/${other.id}/dns_records`,
        { type: 'A', name: 'a', content: '192.0.2.1' },
        t
      ),
      403,
      10000
    )
    expectError(await api('GET', `/zones/${other.id}/dns_records`, undefined, t), 403, 10000)
    const listed = await api('GET', '/zones?per_page=50', undefined, t)
    expect(listed.body.result.map((z: any) => z.id)).toEqual([mine.id])
    expectError(await api('PATCH', `/zones/${mine.id}`, { paused: true }, t), 403, 10000)
  })

  it('keeps a read-only token from writing', async () => {
    const z = await createZone()
    const t = await token([
      {
        permission_groups: [{ name: 'DNS Read' }],
        resources: { [`com.cloudflare.api.account.${DEFAULT_ACCOUNT}`]: '*' },
      },
    ])
    expect((await api('GET', `/zones/${z.id}/dns_records`, undefined, t)).status).toBe(200)
    expectError(
      await api(
        'POST',
        `/zones/${z.id}/dns_records`,
        { type: 'A', name: 'a', content: '192.0.2.1' },
        t
      ),
      403,
      10000
    )
  })

  it('stores only a hash: the secret is shown once and a deleted token stops working', async () => {
    const res = await api('POST', '/user/tokens', {
      name: 'temp',
      policies: [
        {
          permission_groups: [{ name: 'Zone Read' }],
          resources: { 'com.cloudflare.api.account.zone.*': '*' },
        },
      ],
    })
    const { id, value } = res.body.result
    const listed = await api('GET', '/user/tokens')
    expect(JSON.stringify(listed.body.result)).not.toContain(value)
    expect((await api('GET', '/zones', undefined, value)).status).toBe(200)
    await api('DELETE', `/user/tokens/${id}`)
    expectError(await api('GET', '/zones', undefined, value), 403, 9109)
  })

  it('rejects unknown permission groups and resources', async () => {
    expectError(
      await api('POST', '/user/tokens', {
        name: 'x',
        policies: [
          {
            permission_groups: [{ name: 'Everything' }],
            resources: { 'com.cloudflare.api.account.zone.*': '*' },
          },
        ],
      }),
      400,
      1004
    )
    expectError(
      await api('POST', '/user/tokens', {
        name: 'x',
        policies: [{ permission_groups: [{ name: 'DNS Read' }], resources: { 'zone:*': '*' } }],
      }),
      400,
      1004
    )
  })

  it('refuses a __proto__ resource key instead of dropping it', async () => {
    // A parsed record would set the prototype instead of adding the key: the token would grant
    // nothing of what was asked. Sent as JSON text, where __proto__ is an ordinary key.
    const a = (await api('POST', '/accounts', { name: 'proto-resource' })).body.result.id
    const inner = `{"com.cloudflare.api.account.${a}":"*"}`
    for (const resources of [
      `{"__proto__":${inner}}`,
      `{"com.cloudflare.api.account.${a}":{"__proto__":{"com.cloudflare.api.account.zone.*":"*"}}}`,
    ]) {
      const res = await api(
        'POST',
        `/accounts/${a}/tokens`,
        undefined,
        undefined,
        `{"name":"p","policies":[{"permission_groups":[{"name":"DNS Read"}],"resources":${resources}}]}`
      )
      expectError(res, 400, 1004)
      expect(res.body.errors[0]!.message).toContain('__proto__')
    }
    expect((await api('GET', `/accounts/${a}/tokens`)).body.result).toEqual([])
  })

  it('refuses a token condition (IP filter) rather than making an unrestricted token', async () => {
    const a = (await api('POST', '/accounts', { name: 'token-condition' })).body.result.id
    const policies = [
      {
        permission_groups: [{ name: 'DNS Read' }],
        resources: { [`com.cloudflare.api.account.${a}`]: '*' },
      },
    ]
    for (const condition of [
      { request_ip: { in: ['192.0.2.0/24'] } },
      { request_ip: { not_in: ['198.51.100.7/32'] } },
    ]) {
      const res = await api('POST', `/accounts/${a}/tokens`, { name: 'ip', policies, condition })
      expectError(res, 400, 1004)
      expect(res.body.errors[0]!.message).toContain('condition')
    }
    expect((await api('GET', `/accounts/${a}/tokens`)).body.result).toEqual([])
    // An empty condition restricts nothing.
    const empty = await api('POST', `/accounts/${a}/tokens`, {
      name: 'ip',
      policies,
      condition: {},
    })
    expect(empty.status, JSON.stringify(empty.body)).toBe(200)
  })

  it('lets only token admins manage tokens', async () => {
    const t = await token([
      {
        permission_groups: [{ name: 'DNS Write' }],
        resources: { 'com.cloudflare.api.account.zone.*': '*' },
      },
    ])
    expectError(
      await api(
        'POST',
        '/user/tokens',
        {
          name: 'y',
          policies: [
            {
              permission_groups: [{ name: 'DNS Read' }],
              resources: { 'com.cloudflare.api.account.zone.*': '*' },
            },
          ],
        },
        t
      ),
      403,
      10000
    )
  })

  it('lists accounts', async () => {
    const res = await api('GET', '/accounts')
    expect(res.body.result.map((a: any) => a.id)).toContain(DEFAULT_ACCOUNT)
  })
})

describe('unknown routes', () => {
  it('answers the envelope with 7000', async () => {
    expectError(await api('GET', '/nothing/here'), 400, 7000)
  })
})

describe('the dev token', () => {
  it('is only honoured where DEV_API_TOKEN is set (never in the deployed config)', async () => {
    const { createExecutionContext, waitOnExecutionContext } = await import('cloudflare:test')
    const { env } = await import('cloudflare:workers')
    const worker = (await import('../../workers/api/src/index.ts')).default
    const call = async (vars: Record<string, unknown>) => {
      const ctx = createExecutionContext()
      const res = await worker.fetch!(
        new Request('http://localhost/client/v4/zones', {
          headers: { authorization: 'Bearer dev-token' },
        }) as any,
        { ...(env as object), ...vars } as unknown as Env,
        ctx
      )
      await waitOnExecutionContext(ctx)
      return res
    }
    expect((await call({})).status).toBe(200)
    const refused = await call({ DEV_API_TOKEN: undefined })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as any).errors[0].code).toBe(9109)
  })
})
