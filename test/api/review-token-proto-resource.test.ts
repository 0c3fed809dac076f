/**
 * Review: a policy whose resources are keyed `__proto__` is accepted and silently stored with no
 * resources (zod's record sets the prototype instead of a key). The client is told 200 and gets a
 * token that grants nothing it asked for; the resource key should be refused like any other key
 * that does not start with com.cloudflare.api.account.
 */
import { describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

describe('token policy resources', () => {
  it('refuses a __proto__ resource key instead of dropping it', async () => {
    const a = (await api('POST', '/accounts', { name: 'proto-resource' })).body.result.id
    const res = await api(
      'POST',
      `/accounts/${a}/tokens`,
      undefined,
      undefined,
      `{"name":"p","policies":[{"permission_groups":[{"name":"DNS Read"}],"resources":{"__proto__":{"com.cloudflare.api.account.${a}":"*"}}}]}`
    )
    expectError(res, 400, 1004)
    expect(res.body.errors[0]!.message).toContain('__proto__')
  })
})
