/**
 * Big zones and big accounts within production limits: zone deletion in bounded pieces, and the
 * zones list paged in SQL.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { strictD1 } from '@edgedns/strict-bindings'
import {
  ERASE_CHUNK,
  eraseDeletedZone,
  eraseDeletedZones,
} from '../../workers/api/src/zones/erase.ts'
import { api, createZone, DEFAULT_ACCOUNT, expectError } from './helpers.ts'
import { seedRecords } from './seed-records.ts'

const recordCount = async (zoneId: string): Promise<number> =>
  (await env.DB.prepare('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1')
    .bind(zoneId)
    .first<{ n: number }>())!.n

describe('deleting a large zone', () => {
  it(
    'deletes a 300,000-record zone at once for the API and removes its rows in bounded statements',
    { timeout: 60_000 },
    async () => {
      const z = await createZone('huge')
      await seedRecords(z.id, z.name, 300_000)
      expect(await recordCount(z.id)).toBe(300_000)

      const del = await api('DELETE', `/zones/${z.id}`)
      expect(del.status).toBe(200)
      expectError(await api('GET', `/zones/${z.id}`), 404, 7003)
      expectError(await api('GET', `/zones/${z.id}/dns_records`), 404, 7003)
      expect((await api('GET', `/zones?name=${z.name}`)).body.result).toEqual([])
      // The name is free at once, while the old rows are still being removed.
      const again = await api('POST', '/zones', { name: z.name, account: { id: DEFAULT_ACCOUNT } })
      expect(again.status).toBe(200)
      expect((await api('GET', `/zones/${again.body.result.id}/dns_records`)).body.result).toEqual(
        []
      )

      const db = strictD1(env.DB)
      let calls = 0
      for (;;) {
        const p = await eraseDeletedZone(db, z.id, 10)
        calls++
        expect(p.statements).toBeLessThanOrEqual(10)
        expect(p.deleted).toBeLessThanOrEqual(10 * ERASE_CHUNK)
        if (p.done || p.statements === 0) break
      }
      expect(calls).toBeGreaterThan(1)
      expect(await recordCount(z.id)).toBe(0)
      expect(
        await env.DB.prepare('SELECT id FROM zones WHERE id = ?1').bind(z.id).first()
      ).toBeNull()
      expect((await api('GET', `/zones/${again.body.result.id}`)).status).toBe(200)
    }
  )

  it(
    'lets the cron erase finish deleted zones a request left behind',
    { timeout: 30_000 },
    async () => {
      const z = await createZone('left')
      await seedRecords(z.id, z.name, 8_000)
      // Marked deleted without the request's background erase, as if that invocation had died.
      await env.DB.prepare("UPDATE zones SET status = 'deleted' WHERE id = ?1").bind(z.id).run()
      for (let i = 0; i < 10 && (await recordCount(z.id)) > 0; i++)
        await eraseDeletedZones(strictD1(env.DB), 2)
      expect(await recordCount(z.id)).toBe(0)
      expect(
        await env.DB.prepare('SELECT id FROM zones WHERE id = ?1').bind(z.id).first()
      ).toBeNull()
    }
  )
})

describe('listing zones', () => {
  it('pages, filters and orders in SQL with a correct total', async () => {
    const acct = (await api('POST', '/accounts', { name: `list-${Date.now()}` })).body.result.id
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(
      (l) => `${l}-${Date.now().toString(36)}.list.example`
    )
    for (const name of names)
      expect((await api('POST', '/zones', { name, account: { id: acct } })).status).toBe(200)
    const page2 = await api(
      'GET',
      `/zones?account.id=${acct}&per_page=5&page=2&order=name&direction=desc`
    )
    expect(page2.body.result.map((r: any) => r.name)).toEqual([names[1], names[0]])
    expect(page2.body.result_info).toEqual({
      page: 2,
      per_page: 5,
      count: 2,
      total_count: 7,
      total_pages: 2,
    })
    const ends = await api('GET', `/zones?account.id=${acct}&name=starts_with:c-`)
    expect(ends.body.result.map((r: any) => r.name)).toEqual([names[2]])
    const notEqual = await api(
      'GET',
      `/zones?account.id=${acct}&name=not_equal:${names[0]}&per_page=50`
    )
    expect(notEqual.body.result_info.total_count).toBe(6)
  })

  it('shows a zone-scoped token only its zone, and counts only what it sees', async () => {
    const mine = await createZone('scoped')
    await createZone('unseen')
    const res = await api('POST', '/user/tokens', {
      name: 'one zone',
      policies: [
        {
          permission_groups: [{ name: 'DNS Read' }],
          resources: { [`com.cloudflare.api.account.zone.${mine.id}`]: '*' },
        },
      ],
    })
    expect(res.status).toBe(200)
    const list = await api('GET', '/zones', undefined, res.body.result.value)
    expect(list.body.result.map((r: any) => r.id)).toEqual([mine.id])
    expect(list.body.result_info.total_count).toBe(1)
  })
})

describe('the cron run', () => {
  it('continues erasing deleted zones', { timeout: 30_000 }, async () => {
    const { createExecutionContext, createScheduledController, waitOnExecutionContext } =
      await import('cloudflare:test')
    const worker = (await import('../../workers/api/src/index.ts')).default
    const z = await createZone('cron')
    await seedRecords(z.id, z.name, 6_000)
    await env.DB.prepare("UPDATE zones SET status = 'deleted' WHERE id = ?1").bind(z.id).run()
    const ctx = createExecutionContext()
    await worker.scheduled(createScheduledController(), env as Env, ctx)
    await waitOnExecutionContext(ctx)
    expect(await recordCount(z.id)).toBe(0)
    expect(await env.DB.prepare('SELECT id FROM zones WHERE id = ?1').bind(z.id).first()).toBeNull()
  })
})
