/**
 * A token may make tokens only within what it holds itself: its permissions on the same
 * resources, and no later expiry than its own; it may delete only tokens whose permissions it
 * holds. Administrator tokens are not bound.
 */
import { describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

const account = (id: string) => `com.cloudflare.api.account.${id}`
const zone = (id: string) => `com.cloudflare.api.account.zone.${id}`
const groups = (...names: string[]) => names.map((name) => ({ name }))

async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `bound-${Date.now()}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

async function newZone(accountId: string): Promise<string> {
  const res = await api('POST', '/zones', {
    name: `bound-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.example`,
    account: { id: accountId },
  })
  expect(res.status).toBe(200)
  return res.body.result.id
}

/** A token made by the administrator under the account. */
async function maker(
  accountId: string,
  policies: unknown[],
  extra: Record<string, unknown> = {}
): Promise<string> {
  const res = await api('POST', `/accounts/${accountId}/tokens`, {
    name: 'maker',
    policies,
    ...extra,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.result.value
}

function mint(accountId: string, as: string, policies: unknown[], extra = {}) {
  return api('POST', `/accounts/${accountId}/tokens`, { name: 'minted', policies, ...extra }, as)
}

async function tokenCount(accountId: string): Promise<number> {
  return (await api('GET', `/accounts/${accountId}/tokens`)).body.result.length
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()
const inTwoHours = () => new Date(Date.now() + 7_200_000).toISOString()

describe('token minting bound', () => {
  it('refuses a short-lived token with only API Tokens Write minting a permanent DNS Write + Zone Write token', async () => {
    const a = await newAccount()
    const admin = await maker(
      a,
      [{ permission_groups: groups('API Tokens Write'), resources: { [account(a)]: '*' } }],
      { expires_on: inAnHour() }
    )
    const before = await tokenCount(a)
    const res = await mint(a, admin, [
      { permission_groups: groups('DNS Write', 'Zone Write'), resources: { [account(a)]: '*' } },
    ])
    expectError(res, 403, 10000)
    expect(res.body.errors[0]!.message).toMatch(/grant only permissions it holds/)
    expect(res.body.errors[0]!.message).toContain(`on account ${a}`)
    expect(await tokenCount(a)).toBe(before)
  })

  it('refuses a token that outlives its maker: no expiry, or a later one', async () => {
    const a = await newAccount()
    const expires = inAnHour()
    const admin = await maker(
      a,
      [
        {
          permission_groups: groups('DNS Write', 'API Tokens Write'),
          resources: { [account(a)]: '*' },
        },
      ],
      { expires_on: expires }
    )
    const policies = [{ permission_groups: groups('DNS Read'), resources: { [account(a)]: '*' } }]
    const forever = await mint(a, admin, policies)
    expectError(forever, 403, 10000)
    expect(forever.body.errors[0]!.message).toMatch(/expires_on is required/)
    const later = await mint(a, admin, policies, { expires_on: inTwoHours() })
    expectError(later, 403, 10000)
    expect(later.body.errors[0]!.message).toMatch(/outlives/)
    expect((await mint(a, admin, policies, { expires_on: expires })).status).toBe(200)
  })

  it('lets a token grant a subset of what it holds: fewer permissions, one zone, an earlier expiry', async () => {
    const a = await newAccount()
    const z = await newZone(a)
    const admin = await maker(a, [
      {
        permission_groups: groups('DNS Write', 'Zone Read', 'API Tokens Write'),
        resources: { [account(a)]: '*' },
      },
    ])
    const subset = await mint(
      a,
      admin,
      [{ permission_groups: groups('DNS Read', 'Zone Read'), resources: { [zone(z)]: '*' } }],
      { expires_on: inAnHour() }
    )
    expect(subset.status, JSON.stringify(subset.body)).toBe(200)
    const minted = subset.body.result.value
    expect((await api('GET', `/zones/${z}/dns_records`, undefined, minted)).status).toBe(200)
    // The same permissions it holds, account-wide, and a token admin like itself: allowed too.
    const same = await mint(a, admin, [
      {
        permission_groups: groups('DNS Write', 'API Tokens Write'),
        resources: { [account(a)]: '*' },
      },
    ])
    expect(same.status, JSON.stringify(same.body)).toBe(200)
    // Zone Write it does not hold.
    expectError(
      await mint(a, admin, [
        { permission_groups: groups('Zone Write'), resources: { [zone(z)]: '*' } },
      ]),
      403,
      10000
    )
  })

  it('does not let a grant on one zone reach the whole account or another zone', async () => {
    const a = await newAccount()
    const mine = await newZone(a)
    const other = await newZone(a)
    const admin = await maker(a, [
      { permission_groups: groups('DNS Write'), resources: { [zone(mine)]: '*' } },
      { permission_groups: groups('API Tokens Write'), resources: { [account(a)]: '*' } },
    ])
    const dns = groups('DNS Write')
    expectError(
      await mint(a, admin, [{ permission_groups: dns, resources: { [account(a)]: '*' } }]),
      403,
      10000
    )
    expectError(
      await mint(a, admin, [{ permission_groups: dns, resources: { [zone(other)]: '*' } }]),
      403,
      10000
    )
    expectError(
      await mint(a, admin, [
        { permission_groups: dns, resources: { [account(a)]: { [`${zone('*')}`]: '*' } } },
      ]),
      403,
      10000
    )
    const ok = await mint(a, admin, [{ permission_groups: dns, resources: { [zone(mine)]: '*' } }])
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
  })

  it('does not bound the administrator token', async () => {
    const a = await newAccount()
    const res = await api('POST', `/accounts/${a}/tokens`, {
      name: 'anything',
      policies: [
        {
          permission_groups: groups('DNS Write', 'Zone Write', 'API Tokens Write'),
          resources: { [account(a)]: '*' },
        },
      ],
    })
    expect(res.status).toBe(200)
  })
})

describe('token deletion bound', () => {
  /** A token made by the administrator under the account, with its id. */
  async function made(accountId: string, policies: unknown[], extra = {}) {
    const res = await api('POST', `/accounts/${accountId}/tokens`, {
      name: 'victim',
      policies,
      ...extra,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.result.id as string
  }

  const remove = (accountId: string, id: string, as?: string) =>
    api('DELETE', `/accounts/${accountId}/tokens/${id}`, undefined, as)

  it('refuses a token with only API Tokens Write deleting a more powerful token', async () => {
    const a = await newAccount()
    const tokensOnly = await maker(a, [
      { permission_groups: groups('API Tokens Write'), resources: { [account(a)]: '*' } },
    ])
    const stronger = await made(a, [
      {
        permission_groups: groups('DNS Write', 'API Tokens Write'),
        resources: { [account(a)]: '*' },
      },
    ])
    const before = await tokenCount(a)
    const res = await remove(a, stronger, tokensOnly)
    expectError(res, 403, 10000)
    expect(res.body.errors[0]!.message).toMatch(/delete only tokens whose permissions it holds/)
    expect(await tokenCount(a)).toBe(before)
  })

  it('refuses deleting a token that holds a permission on a zone of another account', async () => {
    const [a, b] = [await newAccount(), await newAccount()]
    const zb = await newZone(b)
    // Made by the administrator: a token of account A that may edit DNS of a zone of account B.
    const reachesB = await made(a, [
      { permission_groups: groups('DNS Write'), resources: { [zone(zb)]: '*' } },
    ])
    const holderOfA = await maker(a, [
      {
        permission_groups: groups('API Tokens Write', 'DNS Write'),
        resources: { [account(a)]: '*' },
      },
    ])
    const res = await remove(a, reachesB, holderOfA)
    expectError(res, 403, 10000)
    expect(res.body.errors[0]!.message).toMatch(new RegExp(`on zone ${zb}`))
  })

  it('lets an expiring token revoke a permanent token whose permissions it holds (expiry does not bound a deletion)', async () => {
    const a = await newAccount()
    const leaked = await made(a, [
      { permission_groups: groups('DNS Read'), resources: { [account(a)]: '*' } },
    ])
    const shortLived = await maker(
      a,
      [
        {
          permission_groups: groups('API Tokens Write', 'DNS Write'),
          resources: { [account(a)]: '*' },
        },
      ],
      { expires_on: inAnHour() }
    )
    expect((await remove(a, leaked, shortLived)).status).toBe(200)
  })

  it('lets a token delete tokens within what it holds, itself included', async () => {
    const a = await newAccount()
    const z = await newZone(a)
    const holder = await maker(
      a,
      [
        {
          permission_groups: groups('DNS Write', 'API Tokens Write'),
          resources: { [account(a)]: '*' },
        },
      ],
      { expires_on: inTwoHours() }
    )
    const weaker = await made(
      a,
      [{ permission_groups: groups('DNS Read'), resources: { [zone(z)]: '*' } }],
      { expires_on: inAnHour() }
    )
    expect((await remove(a, weaker, holder)).status).toBe(200)
    const self = (await api('GET', '/user/tokens/verify', undefined, holder)).body.result.id
    expect((await remove(a, self, holder)).status).toBe(200)
  })

  it('does not let a token without API Tokens Write delete itself (docs/api-tokens.md)', async () => {
    const a = await newAccount()
    const reader = await api('POST', `/accounts/${a}/tokens`, {
      name: 'reader',
      policies: [{ permission_groups: groups('DNS Read'), resources: { [account(a)]: '*' } }],
    })
    const { id, value } = reader.body.result
    expectError(await remove(a, id, value), 403, 10000)
    expect(await tokenCount(a)).toBe(1)
  })

  it('does not bound the administrator token', async () => {
    const a = await newAccount()
    const any = await made(a, [
      {
        permission_groups: groups('DNS Write', 'Zone Write', 'API Tokens Write'),
        resources: { [account(a)]: '*' },
      },
    ])
    expect((await remove(a, any)).status).toBe(200)
  })
})
