/**
 * Serials are never reused for a name: a zone deleted and made again under the same name starts
 * after the deleted zone's last serial, even when that serial had run ahead of the clock (more than
 * one commit a second), so a secondary still holding the deleted zone takes the new one.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { serialAfter } from '../../packages/zone-transfer/src/index.ts'
import { maintain } from '../../workers/api/src/cron/maintenance.ts'
import { releaseZoneName } from '../../workers/api/src/shards/directory.ts'
import { api, createZone, DEFAULT_ACCOUNT } from './helpers.ts'
import { serialOf } from './transfer-relay.ts'

const kept = (name: string) =>
  env.DB.prepare('SELECT serial FROM directory_name_serials WHERE name = ?1')
    .bind(name)
    .first<{ serial: number }>()

async function makeAgain(name: string): Promise<string> {
  const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
  expect(res.status).toBe(200)
  return res.body.result.id as string
}

describe('a zone made again after its deletion', () => {
  it('starts after the deleted zone’s serial when that serial ran ahead of the clock', async () => {
    const zone = await createZone('again')
    // Each commit moves the serial by one within a second: thirty run it ahead of the clock.
    for (let i = 0; i < 30; i++) {
      const res = await api('POST', `/zones/${zone.id}/dns_records`, {
        type: 'A',
        name: `h${i}.${zone.name}`,
        content: '192.0.2.1',
      })
      expect(res.status).toBe(200)
    }
    const last = await serialOf(zone.id)
    expect(serialAfter(last, Math.floor(Date.now() / 1000))).toBe(true)
    expect((await api('DELETE', `/zones/${zone.id}`)).status).toBe(200)
    expect((await kept(zone.name))?.serial).toBe(last)

    const again = await makeAgain(zone.name)
    expect(serialAfter(await serialOf(again), last)).toBe(true)
  })

  it('starts from the clock, keeping nothing, when the clock had passed the deleted zone’s serial', async () => {
    const zone = await createZone('again-clock')
    await env.DB.prepare('UPDATE zones SET serial = ?2 WHERE id = ?1')
      .bind(zone.id, Math.floor(Date.now() / 1000) - 100)
      .run()
    expect((await api('DELETE', `/zones/${zone.id}`)).status).toBe(200)
    expect(await kept(zone.name)).toBeNull()
    const before = Math.floor(Date.now() / 1000)
    const serial = await serialOf(await makeAgain(zone.name))
    expect(serial).toBeGreaterThanOrEqual(before)
    expect(serial).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
  })

  it('keeps nothing for a zone never activated: its serials were never served', async () => {
    const zone = await createZone('again-pending')
    await env.DB.prepare('UPDATE zones SET serial = ?2, activated_on = NULL WHERE id = ?1')
      .bind(zone.id, Math.floor(Date.now() / 1000) + 1000)
      .run()
    expect((await api('DELETE', `/zones/${zone.id}`)).status).toBe(200)
    expect(await kept(zone.name)).toBeNull()
  })

  it('keeps the later of two deleted zones’ serials (RFC 1982), whichever is deleted last', async () => {
    const name = 'two-accounts.kept.example'
    const ahead = Math.floor(Date.now() / 1000) + 1000
    const release = async (account: string, serial: number) => {
      const id = `kept-${account}-${serial}`
      await env.DB.prepare(
        `INSERT INTO directory_zones (zone_id, account_id, name, name_rev, status, created_on)
         VALUES (?1, ?2, ?3, ?3, 'pending', ?4)`
      )
        .bind(id, account, name, new Date().toISOString())
        .run()
      await releaseZoneName(env.DB, id, { serial, activated: true, now: new Date().toISOString() })
    }
    await release('a', ahead + 10)
    await release('b', ahead + 5)
    expect((await kept(name))?.serial).toBe(ahead + 10)
    await release('c', ahead + 20)
    expect((await kept(name))?.serial).toBe(ahead + 20)
  })

  it('the cron forgets a kept serial once the clock has passed it, in serial arithmetic', async () => {
    const now = Date.now()
    const sec = Math.floor(now / 1000)
    const rows: [string, number][] = [
      ['passed.kept.example', sec - 5],
      ['ahead.kept.example', sec + 5],
      // 2^32 - 10 is before the clock in serial arithmetic (the clock is less than 2^31 past it).
      ['wrapped.kept.example', 2 ** 32 - 10],
    ]
    for (const [name, serial] of rows) {
      await env.DB.prepare(
        'INSERT OR REPLACE INTO directory_name_serials (name, serial, deleted_on) VALUES (?1, ?2, ?3)'
      )
        .bind(name, serial, new Date(now).toISOString())
        .run()
    }
    await maintain(env as never, now)
    expect(await kept('passed.kept.example')).toBeNull()
    expect(await kept('wrapped.kept.example')).toBeNull()
    expect((await kept('ahead.kept.example'))?.serial).toBe(sec + 5)
  })
})
