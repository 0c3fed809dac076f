/**
 * Review: two concurrent activation checks of one pending zone. The loser's guarded commit fails
 * (the winner bumped the zone version) and its catch sets the directory back to pending although
 * the zone row is active: the platform-wide "one active zone per name" record is lost.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../workers/api/src/app.ts'
import type { OwnershipResolver } from '../../workers/api/src/zones/resolver.ts'
import { api, DEV_TOKEN, type ApiResponse } from './helpers.ts'

class ProvenDns implements OwnershipResolver {
  keys: string[] = []
  async txt(): Promise<string[]> {
    return this.keys
  }
  async nameServers(): Promise<string[]> {
    return []
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

async function directoryStatus(zoneId: string): Promise<string | undefined> {
  const row = await (env as any).DB.prepare('SELECT status FROM directory_zones WHERE zone_id = ?1')
    .bind(zoneId)
    .first()
  return row?.status
}

let n = 0
describe('concurrent activation checks', () => {
  it('keep the directory active once the zone row is active', async () => {
    const dns = new ProvenDns()
    const call = deployed(dns)
    const acct = (await api('POST', '/accounts', { name: `race-${n++}` })).body.result.id
    const name = `race-${Date.now().toString(36)}-${n++}.example`
    const zone = (await call('POST', '/zones', { name, account: { id: acct } })).body.result
    expect(zone.status).toBe('pending')
    dns.keys = [zone.verification_key]
    const results = await Promise.all([
      call('PUT', `/zones/${zone.id}/activation_check`),
      call('PUT', `/zones/${zone.id}/activation_check`),
      call('PUT', `/zones/${zone.id}/activation_check`),
    ])
    const statuses = results.map((r) => r.status)
    const row = (await call('GET', `/zones/${zone.id}`)).body.result
    expect(row.status).toBe('active')
    // The directory must agree with the zone row whatever the losers answered.
    expect({ statuses, directory: await directoryStatus(zone.id) }).toMatchObject({
      directory: 'active',
    })
  })

  it('still refuse the name to another account after the race', async () => {
    const dns = new ProvenDns()
    const call = deployed(dns)
    const acct = (await api('POST', '/accounts', { name: `race-${n++}` })).body.result.id
    const other = (await api('POST', '/accounts', { name: `race-${n++}` })).body.result.id
    const name = `race-${Date.now().toString(36)}-${n++}.example`
    const zone = (await call('POST', '/zones', { name, account: { id: acct } })).body.result
    dns.keys = [zone.verification_key]
    await Promise.all([1, 2, 3].map(() => call('PUT', `/zones/${zone.id}/activation_check`)))
    expect((await call('GET', `/zones/${zone.id}`)).body.result.status).toBe('active')
    // Another account must get 1061 (name active elsewhere) / 1097 for a name below it.
    const same = await call('POST', '/zones', { name, account: { id: other } })
    const below = await call('POST', '/zones', { name: `www.${name}`, account: { id: other } })
    expect([same.status, below.status]).toEqual([400, 400])
  })
})
