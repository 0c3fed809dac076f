/**
 * @module `GET /zones` filters beyond the name: `type` (internal zones only when asked for).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { api, expectError } from './helpers.ts'

const TYPES = ['full', 'partial', 'secondary', 'internal'] as const
let account: string
/** Zone names by type, each `<type>.<tag>.filters.example`. */
const names = new Map<string, string>()

beforeAll(async () => {
  const tag = `t${Date.now().toString(36)}`
  account = (await api('POST', '/accounts', { name: `filters-${tag}` })).body.result.id
  for (const type of TYPES) {
    const name = `${type}.${tag}.filters.example`
    const res = await api('POST', '/zones', { name, account: { id: account }, type })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    names.set(type, name)
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
    expect((await api('GET', `/zones/${zone.id}`)).body.result.name).toBe(names.get('internal'))
  })
})
