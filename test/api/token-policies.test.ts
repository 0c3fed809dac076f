/**
 * How strictly a create reads policies: permission groups named unambiguously and used only on
 * resources of their scopes, at least one resource, policy ids that do not repeat.
 */
import { describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

const account = (id: string) => `com.cloudflare.api.account.${id}`
const zone = (id: string) => `com.cloudflare.api.account.zone.${id}`
const ZONE_ID = '0123456789abcdef0123456789abcdef'

async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `policies-${Date.now()}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

const dnsReadOn = (resource: string) => [
  { permission_groups: [{ name: 'DNS Read' }], resources: { [resource]: '*' } },
]

function create(policies: unknown[]) {
  return api('POST', '/user/tokens', { name: 'policies', policies })
}

/** The 400 a create answers, and its message. */
async function refused(policies: unknown[]): Promise<string> {
  const res = await create(policies)
  expectError(res, 400, 1004)
  return res.body.errors[0]!.message
}

describe('policies are read strictly', () => {
  it('refuses an id and a name of different groups; takes them when they agree', async () => {
    const groups = (await api('GET', '/user/tokens/permission_groups')).body.result
    const id = (name: string) => groups.find((g: any) => g.name === name).id
    const message = await refused([
      {
        permission_groups: [{ id: id('DNS Read'), name: 'DNS Write' }],
        resources: { [zone(ZONE_ID)]: '*' },
      },
    ])
    expect(message).toMatch(
      /^policies\[0\]: permission group id "\w+" is "DNS Read", not "DNS Write"/
    )
    const same = await create([
      {
        permission_groups: [{ id: id('DNS Read'), name: 'dns read' }],
        resources: { [zone(ZONE_ID)]: '*' },
      },
    ])
    expect(same.status).toBe(200)
    expect(same.body.result.policies[0].permission_groups).toEqual([
      { id: id('DNS Read'), name: 'DNS Read' },
    ])
  })

  it('asks a permission group for an id or a name', async () => {
    const message = await refused([
      { permission_groups: [{}], resources: { [zone(ZONE_ID)]: '*' } },
    ])
    expect(message).toBe('policies[0]: a permission group needs an id or a name')
  })

  it('refuses an account group on a zone resource, in either form', async () => {
    const a = await newAccount()
    const tokensWrite = [{ name: 'API Tokens Write' }]
    for (const resources of [
      { [zone(ZONE_ID)]: '*' },
      { [zone('*')]: '*' },
      { [account(a)]: { [zone('*')]: '*' } },
    ]) {
      const message = await refused([{ permission_groups: tokensWrite, resources }])
      expect(message).toMatch(
        /^policies\[0\]: permission group "API Tokens Write" applies to accounts \(com\.cloudflare\.api\.account\), not to the zone resource/
      )
    }
    // On an account it applies; a zone group on an account covers its zones.
    expect(
      (await create([{ permission_groups: tokensWrite, resources: { [account(a)]: '*' } }])).status
    ).toBe(200)
    expect((await create(dnsReadOn(account(a)))).status).toBe(200)
  })

  it('refuses a policy without resources', async () => {
    const none = await refused([{ permission_groups: [{ name: 'DNS Read' }], resources: {} }])
    expect(none).toBe('policies[0]: resources must name at least one resource')
    const a = await newAccount()
    const noZones = await refused([
      { permission_groups: [{ name: 'DNS Read' }], resources: { [account(a)]: {} } },
    ])
    expect(noZones).toMatch(/^policies\[0\]: resource ".*" names no zones/)
  })

  it('refuses two policies with the same id', async () => {
    const policy = { id: 'p1', ...dnsReadOn(zone(ZONE_ID))[0] }
    const message = await refused([policy, { ...policy }])
    expect(message).toBe('policies[1]: id "p1" is also the id of policies[0]')
    const distinct = await create([policy, { ...policy, id: 'p2' }])
    expect(distinct.body.result.policies.map((p: any) => p.id)).toEqual(['p1', 'p2'])
  })
})
