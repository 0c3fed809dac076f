/**
 * API tokens made and deleted appear in the account audit log: who did it, the token's id and
 * name, its policies; never its secret or its hash.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

const account = (id: string) => `com.cloudflare.api.account.${id}`

async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `audit-${Date.now()}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

async function create(path: string, name: string, policies: unknown[], as?: string) {
  const res = await api('POST', path, { name, policies }, as)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.result as { id: string; value: string; name: string }
}

describe('token audit log', () => {
  it('records who made and who deleted a token, with its id and name, and never its secret or hash', async () => {
    const a = await newAccount()
    const tokensAdmin = await create(`/accounts/${a}/tokens`, 'token admin', [
      {
        permission_groups: [{ name: 'API Tokens Write' }, { name: 'DNS Read' }],
        resources: { [account(a)]: '*' },
      },
    ])
    const made = await create(
      `/accounts/${a}/tokens`,
      'ci reader',
      [{ permission_groups: [{ name: 'DNS Read' }], resources: { [account(a)]: '*' } }],
      tokensAdmin.value
    )
    const del = await api(
      'DELETE',
      `/accounts/${a}/tokens/${made.id}`,
      undefined,
      tokensAdmin.value
    )
    expect(del.status, JSON.stringify(del.body)).toBe(200)

    const log = await api('GET', `/accounts/${a}/audit_logs`, undefined, tokensAdmin.value)
    expect(log.status).toBe(200)
    const entries = log.body.result as any[]
    expect(entries.map((e) => [e.action.type, e.resource.id, e.resource.name, e.actor.id])).toEqual(
      [
        ['token_delete', made.id, 'ci reader', tokensAdmin.id],
        ['token_create', made.id, 'ci reader', tokensAdmin.id],
        ['token_create', tokensAdmin.id, 'token admin', 'dev'],
      ]
    )
    expect(entries[0].oldValueJson).toMatchObject({ id: made.id, name: 'ci reader' })
    expect(entries[1].newValueJson.policies[0].permission_groups[0].name).toBe('DNS Read')
    expect(entries.every((e) => e.owner.id === a && e.resource.type === 'api_token')).toBe(true)
    expect(log.body.result_info.total_count).toBe(3)

    const hashes = (
      await env.DB.prepare('SELECT token_hash FROM api_tokens WHERE account_id = ?1')
        .bind(a)
        .all<{ token_hash: string }>()
    ).results.map((r) => r.token_hash)
    const text = JSON.stringify(log.body)
    for (const secret of [tokensAdmin.value, made.value, ...hashes])
      expect(text).not.toContain(secret)
    const stored = JSON.stringify(
      (await env.DB.prepare('SELECT * FROM audit_logs WHERE account_id = ?1').bind(a).all()).results
    )
    for (const secret of [tokensAdmin.value, made.value, ...hashes])
      expect(stored).not.toContain(secret)

    const deletes = await api('GET', `/accounts/${a}/audit_logs?action.type=token_delete`)
    expect(deletes.body.result.map((e: any) => e.resource.id)).toEqual([made.id])
  })

  it('records nothing for a refused token, and shows the log only to token admins of the account', async () => {
    const a = await newAccount()
    const reader = await create(`/accounts/${a}/tokens`, 'reader', [
      { permission_groups: [{ name: 'DNS Read' }], resources: { [account(a)]: '*' } },
    ])
    const tokensOnly = await create(`/accounts/${a}/tokens`, 'tokens only', [
      { permission_groups: [{ name: 'API Tokens Write' }], resources: { [account(a)]: '*' } },
    ])
    const refused = await api(
      'POST',
      `/accounts/${a}/tokens`,
      {
        name: 'escalated',
        policies: [
          { permission_groups: [{ name: 'DNS Write' }], resources: { [account(a)]: '*' } },
        ],
      },
      tokensOnly.value
    )
    expectError(refused, 403, 10000)
    const log = await api('GET', `/accounts/${a}/audit_logs`)
    expect(log.body.result.map((e: any) => e.resource.name)).toEqual(['tokens only', 'reader'])
    expectError(await api('GET', `/accounts/${a}/audit_logs`, undefined, reader.value), 403, 10000)
    expectError(await api('GET', '/user/audit_logs', undefined, tokensOnly.value), 403, 10000)
  })

  it('shows an administrator every entry on /user/audit_logs, tokens made there included', async () => {
    const made = await create('/user/tokens', 'made by the admin', [
      {
        permission_groups: [{ name: 'Zone Read' }],
        resources: { 'com.cloudflare.api.account.*': '*' },
      },
    ])
    await api('DELETE', `/user/tokens/${made.id}`)
    const log = await api('GET', '/user/audit_logs?per_page=5')
    expect(log.status).toBe(200)
    expect(
      log.body.result.slice(0, 2).map((e: any) => [e.action.type, e.resource.id, e.owner.id])
    ).toEqual([
      ['token_delete', made.id, null],
      ['token_create', made.id, null],
    ])
    expectError(await api('GET', '/user/audit_logs?action.type=zone_create'), 400, 9000)
  })
})
