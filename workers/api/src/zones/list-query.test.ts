/**
 * @module `GET /zones` at scale: each page is an index walk (no scan of every zone, no sort), and
 * cursors continue a listing exactly, in every order, without an offset.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../../../test/api/helpers.ts'
import type { Principal } from '../auth/permissions.ts'
import { zoneListQuery } from './list-query.ts'

const admin: Principal = { tokenId: 'test', admin: true, grants: [], expiresOn: null }
const accountToken = (accountId: string): Principal => ({
  tokenId: 'test',
  admin: false,
  grants: [
    {
      permissions: new Set(['zone:read']),
      accounts: new Set([accountId]),
      zones: new Set(),
      everything: false,
    },
  ],
  expiresOn: null,
})

/** The plan of the page query `GET /zones` runs for these parameters. */
async function pagePlan(p: Principal, query: Record<string, string>): Promise<string> {
  const q = zoneListQuery(p, (k) => query[k])
  const sql = `SELECT z.id, z.name, ${q.sortColumn} AS sort FROM zones z JOIN accounts a ON a.id = z.account_id
    WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT 20`
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...q.params)
    .all<{ detail: string }>()
  return results.map((r) => r.detail).join('\n')
}

const cursorFor = async (
  p: Principal,
  query: Record<string, string>,
  sort: unknown,
  name: string
) => zoneListQuery(p, (k) => query[k]).cursorAfter({ sort, name })

/** A fresh account with `n` zones, each `<i>.<tag>.cursor.example`. */
async function accountWithZones(tag: string, n: number): Promise<{ id: string; names: string[] }> {
  const id = (await api('POST', '/accounts', { name: `cursor-${tag}` })).body.result.id
  const names: string[] = []
  for (let i = 0; i < n; i++) {
    const name = `z${String(i).padStart(2, '0')}.${tag}.cursor.example`
    expect((await api('POST', '/zones', { name, account: { id } })).status).toBe(200)
    names.push(name)
  }
  return { id, names }
}

/** Every zone name of a listing, walked page by page through `result_info.cursors.after`. */
async function walk(query: string): Promise<{ names: string[]; pages: number }> {
  const names: string[] = []
  let cursor: string | undefined
  let pages = 0
  for (;;) {
    const res = await api(
      'GET',
      `/zones?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    )
    expect(res.status).toBe(200)
    pages++
    names.push(...res.body.result.map((z: any) => z.name))
    cursor = res.body.result_info.cursors?.after
    if (cursor === undefined) return { names, pages }
    expect(pages).toBeLessThan(50)
  }
}

describe('GET /zones query plans', () => {
  const cases: [string, Principal, Record<string, string>][] = [
    ['the default order', admin, {}],
    ['name descending', admin, { direction: 'desc' }],
    ['status order', admin, { order: 'status' }],
    ['account id order', admin, { order: 'account.id', direction: 'desc' }],
    ['one account, by name', admin, { 'account.id': 'acct' }],
    ['an account-scoped token', accountToken('acct'), {}],
    ['a name prefix', admin, { name: 'starts_with:shop' }],
    ['one zone type', admin, { type: 'secondary' }],
    ['several zone types', accountToken('acct'), { type: 'full,internal' }],
  ]
  for (const [what, p, query] of cases) {
    it(`walks an index for ${what}, first page and by cursor: no full scan, no sort`, async () => {
      const sort = query.order === 'status' ? 'active' : query.order === 'account.id' ? 'acct' : ''
      const first = await pagePlan(p, query)
      const cursor = await cursorFor(p, query, sort || 'm.example', 'm.example')
      const continued = await pagePlan(p, { ...query, cursor })
      for (const plan of [first, continued]) {
        expect(plan).not.toMatch(/TEMP B-TREE/)
        // The zones are read through an index in page order (a walk that stops at the LIMIT).
        expect(plan).toMatch(/^(SCAN|SEARCH) z USING (COVERING )?INDEX zones_/m)
      }
      // A cursor page seeks to where the last page ended.
      expect(continued).toMatch(/^SEARCH z USING (COVERING )?INDEX zones_\w+ \(/m)
    })
  }
})

describe('GET /zones match=any', () => {
  it('reads the indexes of the filters it ORs (then sorts what they match), never every zone', async () => {
    const p = await pagePlan(admin, {
      order: 'status',
      status: 'active',
      'account.id': 'acct',
      match: 'any',
    })
    expect(p).toMatch(/^(SCAN|SEARCH) z USING (COVERING )?INDEX zones_/m)
    expect(p).not.toMatch(/^SCAN z$/m)
  })
})

describe('GET /zones total count', () => {
  it('counts on an index of zones alone unless the account name is filtered on', async () => {
    const q = zoneListQuery(admin, () => undefined)
    expect(q.readsAccount).toBe(false)
    const { results } = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT count(*) AS n FROM zones z WHERE ${q.where}`
    )
      .bind(...q.params)
      .all<{ detail: string }>()
    const plan = results.map((r) => r.detail).join('\n')
    expect(plan).toMatch(/COVERING INDEX zones_/)
    expect(plan).not.toMatch(/accounts/)
    expect(zoneListQuery(admin, (k) => (k === 'account.name' ? 'x' : undefined)).readsAccount).toBe(
      true
    )
  })

  it('still filters by account name, through the join', async () => {
    const name = `named-${Date.now().toString(36)}`
    const id = (await api('POST', '/accounts', { name })).body.result.id
    expect(
      (await api('POST', '/zones', { name: `a.${name}.example`, account: { id } })).status
    ).toBe(200)
    const res = await api('GET', `/zones?account.name=${name}`)
    expect(res.body.result.map((z: any) => z.name)).toEqual([`a.${name}.example`])
    expect(res.body.result_info.total_count).toBe(1)
  })
})

describe('GET /zones cursors', () => {
  it('walk every zone exactly once, in order, in both directions and by status', async () => {
    const { id, names } = await accountWithZones('walk', 12)
    const asc = await walk(`account.id=${id}&per_page=5`)
    expect(asc.names).toEqual(names)
    expect(asc.pages).toBe(3)
    const desc = await walk(`account.id=${id}&per_page=5&direction=desc`)
    expect(desc.names).toEqual([...names].reverse())
    const byStatus = await walk(`account.id=${id}&per_page=5&order=status`)
    expect(byStatus.names).toEqual(names)
  })

  it('continue after the last zone shown even when zones are added before it meanwhile', async () => {
    const { id, names } = await accountWithZones('stable', 6)
    const first = await api('GET', `/zones?account.id=${id}&per_page=5`)
    expect(first.body.result_info).toMatchObject({ page: 1, total_count: 6 })
    const after = first.body.result_info.cursors.after
    // A zone that sorts before the cursor: an offset would show z04 again, a cursor does not.
    await api('POST', '/zones', { name: `a0.stable.cursor.example`, account: { id } })
    const next = await api('GET', `/zones?account.id=${id}&per_page=5&cursor=${after}`)
    expect(next.body.result.map((z: any) => z.name)).toEqual([names[5]])
    expect(next.body.result_info).toEqual({ per_page: 5, count: 1, cursors: {} })
  })

  it('refuse a cursor of another order, and one this API did not return', async () => {
    const { id } = await accountWithZones('bad', 5)
    const first = await api('GET', `/zones?account.id=${id}&per_page=5`)
    const after = first.body.result_info.cursors.after
    const other = await api(
      'GET',
      `/zones?account.id=${id}&per_page=5&order=status&cursor=${after}`
    )
    expect(other.status).toBe(400)
    expect(other.body.errors[0]!.message).toMatch(/another order or direction/)
    for (const junk of ['not-a-cursor', 'W10', btoa('["name","ASC",{},"x"]')]) {
      const res = await api('GET', `/zones?cursor=${encodeURIComponent(junk)}`)
      expect(res.status).toBe(400)
      expect(res.body.errors[0]!.code).toBe(9000)
    }
  })
})
