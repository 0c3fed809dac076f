/**
 * What one token may hold (policies, permission groups, resources, bytes as stored), refused with a
 * 400 before anything is written; and the token lists, paged as Cloudflare's.
 */
import { describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

const account = (id: string) => `com.cloudflare.api.account.${id}`
const zone = (id: string) => `com.cloudflare.api.account.zone.${id}`
const hex32 = (n: number) => n.toString(16).padStart(32, '0')

async function newAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `bounds-${Date.now()}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}

const dnsRead = (a: string) => ({
  permission_groups: [{ name: 'DNS Read' }],
  resources: { [account(a)]: '*' },
})

/** One policy with DNS Read on `n` zones (~75 bytes each as stored). */
const onZones = (n: number, from = 0) => ({
  permission_groups: [{ name: 'DNS Read' }],
  resources: Object.fromEntries(Array.from({ length: n }, (_, i) => [zone(hex32(from + i)), '*'])),
})

async function tokensAndAudit(a: string): Promise<[number, number]> {
  const tokens = await api('GET', `/accounts/${a}/tokens`)
  const audit = await api('GET', `/accounts/${a}/audit_logs`)
  return [tokens.body.result_info.total_count, audit.body.result.length]
}

describe('token bounds', () => {
  it('refuses more than 50 policies, naming the bound, and writes nothing', async () => {
    const a = await newAccount()
    for (const n of [51, 20_000]) {
      const res = await api('POST', `/accounts/${a}/tokens`, {
        name: 'many',
        policies: Array.from({ length: n }, () => dnsRead(a)),
      })
      expectError(res, 400, 1004)
      expect(res.body.errors[0]!.message).toBe(`policies: at most 50 allowed; got ${n}`)
    }
    expect(await tokensAndAudit(a)).toEqual([0, 0])
    const fifty = Array.from({ length: 50 }, () => dnsRead(a))
    expect(
      (await api('POST', `/accounts/${a}/tokens`, { name: 'ok', policies: fifty })).status
    ).toBe(200)
  })

  it('refuses more than 20 permission groups or 500 resources in a policy', async () => {
    const groups = await api('POST', '/user/tokens', {
      name: 'groups',
      policies: [{ ...onZones(1), permission_groups: Array(21).fill({ name: 'DNS Read' }) }],
    })
    expectError(groups, 400, 9000)
    expect(groups.body.errors[0]!.message).toMatch(/policies\.0\.permission_groups: .*at most 20/)
    const resources = await api('POST', '/user/tokens', { name: 'res', policies: [onZones(501)] })
    expectError(resources, 400, 1004)
    expect(resources.body.errors[0]!.message).toBe(
      'policies[0].resources: at most 500 allowed; got 501'
    )
    const nested = await api('POST', '/user/tokens', {
      name: 'nested',
      policies: [
        {
          permission_groups: [{ name: 'DNS Read' }],
          resources: { [account(hex32(1))]: onZones(500).resources },
        },
      ],
    })
    expect(nested.body.errors[0]!.message).toBe(
      'policies[0].resources: at most 500 allowed; got 501'
    )
  })

  it('refuses policies over 64 KiB as stored, naming the bound, and writes nothing', async () => {
    const a = await newAccount()
    const big = await api('POST', `/accounts/${a}/tokens`, {
      name: 'big',
      policies: [onZones(500), onZones(500, 500)],
    })
    expectError(big, 400, 1004)
    expect(big.body.errors[0]!.message).toMatch(
      /^policies: a token's policies may take at most 65536 bytes as stored \(JSON\); these take \d+$/
    )
    expect(await tokensAndAudit(a)).toEqual([0, 0])
    const fits = await api('POST', `/accounts/${a}/tokens`, {
      name: 'fits',
      policies: [onZones(500)],
    })
    expect(fits.status, JSON.stringify(fits.body.errors)).toBe(200)
    expect(await tokensAndAudit(a)).toEqual([1, 1])
  })
})

describe('token lists are paged', () => {
  it('answers page and per_page (default 20, at most 50) with result_info', async () => {
    const a = await newAccount()
    const made: string[] = []
    for (let i = 0; i < 23; i++) {
      const res = await api('POST', `/accounts/${a}/tokens`, {
        name: `t${i}`,
        policies: [dnsRead(a)],
      })
      made.push(res.body.result.id)
    }
    const first = await api('GET', `/accounts/${a}/tokens`)
    expect(first.body.result).toHaveLength(20)
    expect(first.body.result_info).toEqual({
      page: 1,
      per_page: 20,
      count: 20,
      total_count: 23,
      total_pages: 2,
    })
    const second = await api('GET', `/accounts/${a}/tokens?page=2`)
    expect(second.body.result_info).toMatchObject({ page: 2, count: 3, total_count: 23 })
    const seen = [...first.body.result, ...second.body.result].map((t: any) => t.id)
    expect(seen.sort()).toEqual([...made].sort())
    const small = await api('GET', `/accounts/${a}/tokens?per_page=5&page=5`)
    expect(small.body.result_info).toEqual({
      page: 5,
      per_page: 5,
      count: 3,
      total_count: 23,
      total_pages: 5,
    })
    expectError(await api('GET', `/accounts/${a}/tokens?per_page=51`), 400, 9000)
    expectError(await api('GET', `/accounts/${a}/tokens?page=0`), 400, 9000)
    const user = await api('GET', '/user/tokens?per_page=50')
    expect(user.body.result.length).toBeLessThanOrEqual(50)
    expect(user.body.result_info.total_count).toBeGreaterThanOrEqual(23)
  })
})
