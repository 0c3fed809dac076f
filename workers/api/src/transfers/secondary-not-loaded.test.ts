/**
 * A secondary zone that has no transfer yet is not answered (SERVFAIL over DoH, as BIND answers
 * for a secondary zone it has not loaded, and as an expired zone is answered), rather than as an
 * empty zone of our SOA and NS; its first transfer makes it answer. A zone that stops being
 * secondary answers with what it holds; one that becomes secondary waits for its first transfer.
 * A zone that has no transfer recorded but still answers (its row from before new secondary zones
 * were marked not loaded) is marked so by its first failed check.
 */
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import type { MessageRR } from '@edgedns/dns-wire'
import { FIRST_TRANSFER_RETRY } from '@edgedns/zone-transfer'
import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT, dohJson } from '../../../../test/api/helpers.ts'
import { primaryPeer, writeIncoming } from '../../../../test/api/incoming-rows.ts'
import { settle } from '../builder/test/helpers.ts'
import { builderStub } from '../commit/zone-change.ts'
import type { SecondaryZone } from './secondary-zone.ts'
import { secondaryStub } from './secondary-stub.ts'
import { commitExpiry } from './expiry-commit.ts'
import { TransferStage } from './transfer-commit.ts'

const PRIMARY = 2025020202

const rr = (name: string, type: string, typeCode: number, data: string): MessageRR => ({
  name: `${name}.`,
  type,
  typeCode,
  class: 1,
  ttl: 300,
  data,
})

/** Commits an AXFR of the zone (its SOA at `PRIMARY`, an A record at www) and builds it. */
async function transferred(id: string, name: string): Promise<void> {
  const row = (await env.DB.prepare('SELECT version, change_seq, serial FROM zones WHERE id = ?1')
    .bind(id)
    .first<{ version: number; change_seq: number; serial: number }>())!
  const soa = rr(
    name,
    'SOA',
    6,
    `ns.primary.test. hostmaster.primary.test. ${PRIMARY} 3600 600 86400 300`
  )
  const stage = new TransferStage(env.DB, { zoneId: id, zoneName: name })
  try {
    await stage.sink('add', rr(name, 'NS', 2, 'ns.primary.test.'))
    await stage.sink('add', rr(`www.${name}`, 'A', 1, '192.0.2.21'))
    await stage.commit({
      guard: { version: row.version, changeSeq: row.change_seq, serial: row.serial },
      soa,
      replace: true,
    })
  } finally {
    await stage.discard()
  }
  await builderStub(env, id).notify(id, row.change_seq + 1)
  await settle(id)
}

describe('a secondary zone before its first transfer', () => {
  it('answers SERVFAIL over DoH until its first transfer, then answers the copy', async () => {
    const { id, name } = await createZone('unloaded', 'secondary')
    await settle(id)
    expect((await dohJson(name, 'SOA')).Status).toBe(2)
    expect((await dohJson(`www.${name}`, 'A')).Status).toBe(2)
    expect((await dohJson(`nothing.${name}`, 'TXT')).Status).toBe(2)

    await transferred(id, name)
    const soa = await dohJson(name, 'SOA')
    expect(soa.Status).toBe(0)
    expect(soa.Answer?.[0]?.data).toContain(` ${PRIMARY} `)
    expect((await dohJson(`www.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.21')

    // No longer secondary: it answers with what it holds.
    expect((await api('PATCH', `/zones/${id}`, { type: 'full' })).status).toBe(200)
    await settle(id)
    expect((await dohJson(`www.${name}`, 'AAAA')).Status).toBe(0)
    expect((await dohJson(`www.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.21')
  })

  it('a zone that becomes secondary is not answered until its first transfer; back to full, it answers', async () => {
    const name = `becomes-${Date.now().toString(36)}.example`
    const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT } })
    expect(res.status).toBe(200)
    const id = res.body.result.id as string
    const record = await api('POST', `/zones/${id}/dns_records`, {
      type: 'A',
      name: `own.${name}`,
      content: '192.0.2.30',
    })
    expect(record.status).toBe(200)
    await settle(id)
    expect((await dohJson(`own.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.30')

    expect((await api('PATCH', `/zones/${id}`, { type: 'secondary' })).status).toBe(200)
    await settle(id)
    expect((await dohJson(`own.${name}`, 'TXT')).Status).toBe(2)

    expect((await api('PATCH', `/zones/${id}`, { type: 'full' })).status).toBe(200)
    await settle(id)
    expect((await dohJson(`own.${name}`, 'AAAA')).Status).toBe(0)

    expect((await api('PATCH', `/zones/${id}`, { type: 'secondary' })).status).toBe(200)
    await transferred(id, name)
    expect((await dohJson(`www.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.21')
    expect((await dohJson(`own.${name}`, 'A')).Status).toBe(3)
  })
})

describe('a secondary zone without a transfer that still answers', () => {
  // Its object may hold no state, or the state of checks that counted our own SOA as a good copy.
  const saved = {
    'no saved state': null,
    'a saved state counting our SOA as checked': {
      soa: { refresh: 10000, retry: 2400, expire: 604800 },
      lastSuccess: Math.floor(Date.now() / 1000) - 3600,
      failures: 0,
      lastError: null,
    },
  }
  it.each(Object.entries(saved))(
    'is not answered after a failed check, retried as before a first transfer (%s)',
    async (_, state) => {
      const zone = await createZone('answering', 'secondary')
      const { id, name } = zone
      // An answering zone with no copy recorded (`soa_serial` NULL).
      const row = (await env.DB.prepare(
        'SELECT version, change_seq, serial FROM zones WHERE id = ?1'
      )
        .bind(id)
        .first<{ version: number; change_seq: number; serial: number }>())!
      const guard = { version: row.version, changeSeq: row.change_seq, serial: row.serial }
      await builderStub(env, id).notify(id, await commitExpiry(env.DB, id, guard, false))
      await writeIncoming(zone, await primaryPeer())
      await settle(id)
      expect((await dohJson(`www.${name}`, 'A')).Status).toBe(3)

      const alarm = await runInDurableObject(
        secondaryStub(env, id) as unknown as DurableObjectStub,
        async (o: unknown, storage: DurableObjectState) => {
          if (state) await storage.storage.put('state', { zoneId: id, ...state })
          const object = o as SecondaryZone
          object.transfer = async () => ({ status: 'failed', error: 'primary unreachable' })
          await object.check(id)
          return storage.storage.getAlarm()
        }
      )
      expect(alarm).not.toBeNull()
      expect(alarm! - Date.now()).toBeLessThanOrEqual(FIRST_TRANSFER_RETRY * 1000)
      await settle(id)
      expect((await dohJson(`www.${name}`, 'A')).Status).toBe(2)
      expect((await dohJson(name, 'SOA')).Status).toBe(2)
    }
  )
})
