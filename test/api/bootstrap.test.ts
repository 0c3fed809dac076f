/**
 * A fresh deployment, bootstrapped as README "Deploying" says (`pnpm run bootstrap` runs exactly
 * this statement through `wrangler d1 execute --remote`), is administrable with no dev token.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module shared with scripts/bootstrap.mjs
import { bootstrapStatement, newBootstrapToken } from '../../scripts/lib/bootstrap-token.mjs'
import worker from '../../workers/api/src/index.ts'

/** The deployed worker: the same bindings, but no DEV_API_TOKEN (it exists only in local dev). */
const deployedEnv = { ...env, DEV_API_TOKEN: undefined } as Env

async function call(method: string, path: string, token: string, body?: unknown) {
  const ctx = createExecutionContext()
  const req = new Request(`https://edgedns.example/client/v4${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'cf-connecting-ip': '198.51.100.200',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const res = await worker.fetch(
    req as Request<unknown, IncomingRequestCfProperties>,
    deployedEnv,
    ctx
  )
  await waitOnExecutionContext(ctx)
  return {
    status: res.status,
    body: (await res.json()) as { success: boolean; result: any; errors: { code: number }[] },
  }
}

describe('bootstrap of a fresh deployment', () => {
  it('mints an admin token that creates an account, a zone in it and a scoped token; the scoped token works and stays in scope', async () => {
    // Fresh: the migrations' default account, and no token at all.
    expect(await env.DB.prepare('SELECT count(*) AS n FROM api_tokens').first('n')).toBe(0)
    const admin = await newBootstrapToken()
    const inserted = await env.DB.prepare(
      bootstrapStatement({ id: admin.id, hash: admin.hash })
    ).run()
    expect(inserted.results).toEqual([{ id: admin.id }])
    const stored = await env.DB.prepare('SELECT token_hash, admin FROM api_tokens WHERE id = ?1')
      .bind(admin.id)
      .first<{ token_hash: string; admin: number }>()
    expect(stored).toEqual({ token_hash: admin.hash, admin: 1 }) // the hash only, never the secret

    // No dev token in a deployment.
    expect((await call('GET', '/zones', 'dev-token')).status).toBe(403)

    const account = await call('POST', '/accounts', admin.secret, { name: 'Customer' })
    expect(account.status).toBe(200)
    const accountId = account.body.result.id as string
    const zone = await call('POST', '/zones', admin.secret, {
      name: `bootstrap-${Date.now().toString(36)}.example`,
      account: { id: accountId },
    })
    expect(zone.status).toBe(200)
    const scoped = await call('POST', `/accounts/${accountId}/tokens`, admin.secret, {
      name: 'deployer',
      policies: [
        {
          permission_groups: [{ name: 'DNS Write' }],
          resources: { [`com.cloudflare.api.account.zone.${zone.body.result.id}`]: '*' },
        },
      ],
    })
    expect(scoped.status).toBe(200)
    const secret = scoped.body.result.value as string

    const record = await call('POST', `/zones/${zone.body.result.id}/dns_records`, secret, {
      type: 'A',
      name: 'www',
      content: '192.0.2.7',
    })
    expect(record.status).toBe(200)
    expect((await call('POST', '/accounts', secret, { name: 'Not allowed' })).status).toBe(403)
    expect((await call('POST', '/propagation/sweep', admin.secret)).status).toBe(200)
  })

  it('creates no second admin token unless forced', async () => {
    const first = await newBootstrapToken()
    await env.DB.prepare(bootstrapStatement({ id: first.id, hash: first.hash })).run()
    const again = await newBootstrapToken()
    expect(
      (await env.DB.prepare(bootstrapStatement({ id: again.id, hash: again.hash })).run()).results
    ).toEqual([])
    expect((await call('GET', '/zones', again.secret)).status).toBe(403)
    expect(
      (
        await env.DB.prepare(
          bootstrapStatement({ id: again.id, hash: again.hash, force: true })
        ).run()
      ).results
    ).toEqual([{ id: again.id }])
    expect((await call('GET', '/zones', again.secret)).status).toBe(200)
  })

  it('puts nothing but checked hex and time into its SQL', () => {
    expect(() =>
      bootstrapStatement({ id: "x'); DROP TABLE zones; --", hash: 'a'.repeat(64) })
    ).toThrow(/bad token id/)
    expect(() =>
      bootstrapStatement({ id: 'a'.repeat(32), hash: 'a'.repeat(64), now: "'" })
    ).toThrow(/bad time/)
  })
})
