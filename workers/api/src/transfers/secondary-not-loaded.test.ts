/**
 * A secondary zone that has no transfer yet is not answered (SERVFAIL over DoH, as BIND answers
 * for a secondary zone it has not loaded, and as an expired zone is answered), rather than as an
 * empty zone of our SOA and NS; its first transfer makes it answer. A zone that stops being
 * secondary answers with what it holds; one that becomes secondary waits for its first transfer.
 */
import { env, exports } from 'cloudflare:workers'
import type { MessageRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { api, DEFAULT_ACCOUNT } from '../../../../test/api/helpers.ts'
import { settle } from '../builder/test/helpers.ts'
import { builderStub } from '../commit/zone-change.ts'
import { TransferStage } from './transfer-commit.ts'

const PRIMARY = 2025020202

interface Answer {
  Status: number
  Answer?: { name: string; type: number; data: string }[]
}

async function doh(name: string, type: string): Promise<Answer> {
  const res: Response = await (exports as any).default.fetch(
    `http://localhost/dns-query?name=${name}&type=${type}`,
    { headers: { accept: 'application/dns-json' } }
  )
  expect(res.status).toBe(200)
  return res.json()
}

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
    const name = `unloaded-${Date.now().toString(36)}.example`
    const res = await api('POST', '/zones', {
      name,
      account: { id: DEFAULT_ACCOUNT },
      type: 'secondary',
    })
    expect(res.status).toBe(200)
    const id = res.body.result.id as string
    await settle(id)
    expect((await doh(name, 'SOA')).Status).toBe(2)
    expect((await doh(`www.${name}`, 'A')).Status).toBe(2)
    expect((await doh(`nothing.${name}`, 'TXT')).Status).toBe(2)

    await transferred(id, name)
    const soa = await doh(name, 'SOA')
    expect(soa.Status).toBe(0)
    expect(soa.Answer?.[0]?.data).toContain(` ${PRIMARY} `)
    expect((await doh(`www.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.21')

    // No longer secondary: it answers with what it holds.
    expect((await api('PATCH', `/zones/${id}`, { type: 'full' })).status).toBe(200)
    await settle(id)
    expect((await doh(`www.${name}`, 'AAAA')).Status).toBe(0)
    expect((await doh(`www.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.21')
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
    expect((await doh(`own.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.30')

    expect((await api('PATCH', `/zones/${id}`, { type: 'secondary' })).status).toBe(200)
    await settle(id)
    expect((await doh(`own.${name}`, 'TXT')).Status).toBe(2)

    expect((await api('PATCH', `/zones/${id}`, { type: 'full' })).status).toBe(200)
    await settle(id)
    expect((await doh(`own.${name}`, 'AAAA')).Status).toBe(0)

    expect((await api('PATCH', `/zones/${id}`, { type: 'secondary' })).status).toBe(200)
    await transferred(id, name)
    expect((await doh(`www.${name}`, 'A')).Answer?.[0]?.data).toBe('192.0.2.21')
    expect((await doh(`own.${name}`, 'A')).Status).toBe(3)
  })
})
