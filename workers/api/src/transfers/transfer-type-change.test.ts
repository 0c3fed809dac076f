/**
 * A transfer whose zone stops being secondary while it runs is not committed: the commit batch
 * fails as a version conflict would, and the retry finds no secondary zone. The owner's records and
 * serial of the zone, now primary, stay as they are.
 */
import { env } from 'cloudflare:workers'
import type { MessageRR } from '@edgedns/dns-wire'
import { expect, it } from 'vitest'
import { api, DEFAULT_ACCOUNT } from '../../../../test/api/helpers.ts'
import { CommitConflict } from '../commit/zone-change.ts'
import { TransferStage } from './transfer-commit.ts'

const soa = (zone: string, serial: number): MessageRR =>
  ({
    name: zone,
    type: 'SOA',
    typeCode: 6,
    class: 1,
    ttl: 3600,
    data: `ns1.${zone}. admin.${zone}. ${serial} 3600 600 604800 300`,
  }) as MessageRR

it('a transfer is not committed into a zone made primary while it ran', async () => {
  const name = `made-full-${Date.now().toString(36)}.example`
  const created = await api('POST', '/zones', {
    name,
    account: { id: DEFAULT_ACCOUNT },
    type: 'secondary',
  })
  const id = created.body.result.id as string
  const stage = new TransferStage(env.DB, { zoneId: id, zoneName: name })
  await stage.sink('add', {
    ...soa(name, 7),
    name: `www.${name}`,
    type: 'A',
    typeCode: 1,
    data: '192.0.2.1',
  } as MessageRR)
  expect((await api('PATCH', `/zones/${id}`, { type: 'full' })).status).toBe(200)
  const mine = await api('POST', `/zones/${id}/dns_records`, {
    type: 'A',
    name: `mine.${name}`,
    content: '192.0.2.77',
    ttl: 300,
  })
  expect(mine.status).toBe(200)
  const zone = () =>
    env.DB.prepare('SELECT version, change_seq, serial, type FROM zones WHERE id = ?1')
      .bind(id)
      .first<{ version: number; change_seq: number; serial: number; type: string }>()
  const before = (await zone())!
  // Even with the zone's current version (as a retry that re-read the row would hold).
  const guard = { version: before.version, changeSeq: before.change_seq, serial: before.serial }
  const commit = stage.commit({ guard, soa: soa(name, 7), replace: true })
  await expect(commit).rejects.toBeInstanceOf(CommitConflict)
  await stage.discard()
  expect(await zone()).toEqual(before)
  const records = await env.DB.prepare('SELECT name FROM dns_records WHERE zone_id = ?1')
    .bind(id)
    .all<{ name: string }>()
  expect(records.results.map((r) => r.name)).toContain(`mine.${name}`)
  expect(records.results.map((r) => r.name)).not.toContain(`www.${name}`)
})
