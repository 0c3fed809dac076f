/**
 * @module `GET /zones` filters beyond the name: `type` (internal zones only when asked for) and
 * `match` (all or any of name, status, account.id and account.name).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

const TYPES = ['full', 'partial', 'secondary', 'internal'] as const
let account: string
/** Zone names by type, each `<type>.<tag>.filters.example`. */
const zoneNames = new Map<string, string>()

beforeAll(async () => {
  const tag = `t${Date.now().toString(36)}`
  account = (await api('POST', '/accounts', { name: `filters-${tag}` })).body.result.id
  for (const type of TYPES) {
    const name = `${type}.${tag}.filters.example`
    const res = await api('POST', '/zones', { name, account: { id: account }, type })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    zoneNames.set(type, name)
  }
})

async function listed(query: string): Promise<string[]> {
  const res = await api('GET', `/zones?account.id=${account}&${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body.result_info.total_count).toBe(res.body.result.length)
  return res.body.result.map((z: any) => z.type).sort()
}

describe('GET /zones type', () => {
  it('leaves internal zones out when no type is given', async () => {
    expect(await listed('')).toEqual(['full', 'partial', 'secondary'])
    expect(await listed('type=')).toEqual(['full', 'partial', 'secondary'])
  })
  it('keeps the zones of one type, internal included when named', async () => {
    for (const type of TYPES) expect(await listed(`type=${type}`)).toEqual([type])
  })
  it('takes several types comma-separated or repeated (as the SDK sends them)', async () => {
    expect(await listed('type=internal,full')).toEqual(['full', 'internal'])
    expect(await listed('type=internal&type=secondary')).toEqual(['internal', 'secondary'])
    expect(await listed('type=partial&type=full,internal')).toEqual(['full', 'internal', 'partial'])
  })
  it('refuses an unknown type, naming it', async () => {
    for (const q of ['type=primary', 'type=full,bogus', 'type=full&type=Full']) {
      const res = await api('GET', `/zones?${q}`)
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toMatch(
        /^type must be one or more .* got "(primary|bogus|Full)"$/
      )
    }
  })
  it('still reaches an internal zone by id', async () => {
    const [zone] = (await api('GET', `/zones?account.id=${account}&type=internal`)).body.result
    expect((await api('GET', `/zones/${zone.id}`)).body.result.name).toBe(zoneNames.get('internal'))
  })
})

describe('GET /zones status, paging and name operators', () => {
  it('keeps the zones of a status, and refuses an unknown one, naming it', async () => {
    expect(await listed('status=active')).toEqual(['full', 'partial', 'secondary'])
    expect(await listed('status=pending')).toEqual([])
    expect(await listed('status=moved')).toEqual([])
    expect(await listed('status=')).toEqual(['full', 'partial', 'secondary'])
    for (const status of ['__proto__', 'deleted', 'copying', 'Active']) {
      const res = await api('GET', `/zones?status=${status}`)
      expectError(res, 400, 9000)
      expect(res.body.errors[0]!.message).toBe(
        `status must be one of initializing, pending, active, moved; got ${JSON.stringify(status)}`
      )
    }
  })
  it('takes the last of a repeated parameter, as every list does', async () => {
    const res = await api('GET', `/zones?account.id=${account}&per_page=2&per_page=3`)
    expect(res.body.result_info).toMatchObject({ per_page: 3, count: 3 })
    expect(await listed('status=__proto__&status=active')).toEqual(['full', 'partial', 'secondary'])
  })
  it.each(['0x10', '1e1', '2.0', '+2'])('refuses per_page=%j: decimal digits only', async (v) => {
    const res = await api('GET', `/zones?per_page=${encodeURIComponent(v)}`)
    expectError(res, 400, 9000)
    expect(res.body.errors[0]!.message).toMatch(/per_page must be an integer/)
  })
  it.each(['ends_with:', 'starts_with:', 'contains:', 'ends_with_case_sensitive:'])(
    'name=%s (an empty value) matches every zone, as an absent name does',
    async (name) => {
      expect(await listed(`name=${name}`)).toEqual(['full', 'partial', 'secondary'])
    }
  )
})

describe('GET /zones match', () => {
  it('keeps the zones matching any filter with match=any, all of them by default', async () => {
    const other = (await api('POST', '/accounts', { name: `match-${Date.now()}` })).body.result.id
    const elsewhere = `x.${Date.now().toString(36)}.match.example`
    expect((await api('POST', '/zones', { name: elsewhere, account: { id: other } })).status).toBe(
      200
    )
    const names = async (query: string) =>
      (await api('GET', `/zones?per_page=50&${query}`)).body.result.map((z: any) => z.name).sort()
    expect(await names(`account.id=${account}&name=${elsewhere}`)).toEqual([])
    expect(await names(`account.id=${account}&name=${elsewhere}&match=all`)).toEqual([])
    // Type still applies to every zone listed: the internal zone stays out.
    expect(await names(`account.id=${account}&name=${elsewhere}&match=any`)).toEqual(
      [
        zoneNames.get('full'),
        zoneNames.get('partial'),
        zoneNames.get('secondary'),
        elsewhere,
      ].sort()
    )
    expect(await names(`account.id=${account}&name=${elsewhere}&match=any&type=internal`)).toEqual([
      zoneNames.get('internal'),
    ])
  })
  it('refuses a match other than all or any', async () => {
    const res = await api('GET', '/zones?match=some')
    expectError(res, 400, 9000)
    expect(res.body.errors[0]!.message).toMatch(/match must be one of all, any/)
  })
})
