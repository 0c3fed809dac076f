/**
 * The API as a deployment runs it: zone ownership required, the public DNS answered by a test
 * resolver, and activation checks not rate limited unless a limiter is given; `overrides` replace
 * bindings (a database with a fault, say).
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { createApp } from '../../workers/api/src/app.ts'
import type { OwnershipResolver } from '../../workers/api/src/zones/resolver.ts'
import { DEV_TOKEN, type ApiResponse } from './helpers.ts'

/** A limiter that never refuses: tests of the verdicts check a zone several times a minute. */
const unlimited = { limit: async () => ({ success: true }) } as unknown as RateLimit

export type DeployedCall = (method: string, path: string, body?: unknown) => Promise<ApiResponse>

/** A client of the API with ZONE_VERIFICATION=required whose lookups `dns` answers. */
export function deployed(
  dns: OwnershipResolver,
  limiter: RateLimit = unlimited,
  overrides: Partial<Env> = {}
): DeployedCall {
  const requiredEnv = {
    ...env,
    ...overrides,
    ZONE_VERIFICATION: 'required',
    ACTIVATION_CHECK_LIMITER: limiter,
  } as Env
  const app = createApp({ ownershipResolver: dns })
  return async (method, path, body) => {
    const ctx = createExecutionContext()
    const res = await app.request(
      `http://localhost/client/v4${path}`,
      {
        method,
        headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      requiredEnv,
      ctx
    )
    await waitOnExecutionContext(ctx)
    return { status: res.status, body: (await res.json()) as any, headers: res.headers }
  }
}
