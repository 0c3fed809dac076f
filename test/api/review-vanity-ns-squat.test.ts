/**
 * Review: the delegation proof compares the name's delegation with the zone's
 * `vanity_name_servers` when set, and the zone's own account sets those freely (PATCH /zones/{id}).
 * Any account can therefore set them to the name servers the domain is delegated to today (its
 * real DNS provider's) and activate a zone for somebody else's domain, with no TXT record and no
 * change to the domain's delegation.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../workers/api/src/app.ts'
import type { OwnershipResolver } from '../../workers/api/src/zones/resolver.ts'
import { api, DEV_TOKEN, type ApiResponse } from './helpers.ts'

/** The public DNS: the victim's domain is delegated to its own provider, no TXT anywhere. */
class PublicDns implements OwnershipResolver {
  constructor(private readonly delegations: Map<string, string[]>) {}
  async txt(): Promise<string[]> {
    return []
  }
  async nameServers(name: string): Promise<string[]> {
    return this.delegations.get(name) ?? []
  }
}
const unlimited = { limit: async () => ({ success: true }) } as unknown as RateLimit

function deployed(dns: OwnershipResolver) {
  const requiredEnv = {
    ...env,
    ZONE_VERIFICATION: 'required',
    ACTIVATION_CHECK_LIMITER: unlimited,
  } as Env
  const app = createApp({ ownershipResolver: dns })
  return async (method: string, path: string, body?: unknown): Promise<ApiResponse> => {
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

describe('zone ownership', () => {
  it('does not activate a zone whose vanity name servers are the domain’s current provider', async () => {
    const victim = `victim-${Date.now().toString(36)}.example`
    const providerNs = ['ns1.victim-dns-provider.example', 'ns2.victim-dns-provider.example']
    const call = deployed(new PublicDns(new Map([[victim, providerNs]])))
    const attacker = (await api('POST', '/accounts', { name: 'squatter' })).body.result.id
    const zone = (await call('POST', '/zones', { name: victim, account: { id: attacker } })).body
      .result
    expect(zone.status).toBe('pending')
    const patched = await call('PATCH', `/zones/${zone.id}`, { vanity_name_servers: providerNs })
    expect(patched.status).toBe(200)
    await call('PUT', `/zones/${zone.id}/activation_check`)
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('pending')
  })
})
