import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { scheduleSecondaries } from '../../workers/api/src/transfers/schedule-secondaries.ts'
import { secondaryStub } from '../../workers/api/src/transfers/secondary-stub.ts'
import { decodeMessage, encodeQuery } from '../../packages/dns-wire/src/index.ts'
import {
  parseTsigKey,
  signMessage,
  splitTsig,
  TsigStreamVerifier,
} from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { api, createZone, DEFAULT_ACCOUNT, expectError } from './helpers.ts'

const SECRET = 'c2VjcmV0LWZvci10aGUtbm90aWZ5LXRlc3QtMzItb2N0ZXRz'
const key = parseTsigKey(`hmac-sha256:notify-key:${SECRET}`)
const TSIG_ID = 'f0000000000000000000000000000001'
let n = 0

async function secondaryZone(withIncoming: boolean, tsig: boolean) {
  const name = `sec-${Date.now().toString(36)}-${n++}.example`
  const res = await api('POST', '/zones', {
    name,
    account: { id: DEFAULT_ACCOUNT },
    type: 'secondary',
  })
  const id = res.body.result.id as string
  if (withIncoming) {
    const now = new Date().toISOString()
    const peer = crypto.randomUUID().replaceAll('-', '')
    const tsigId = tsig ? TSIG_ID : null
    const stmts = [
      env.DB.prepare(
        `INSERT INTO transfer_peers (id, account_id, name, ip, port, ixfr_enable, tsig_id, created_on, modified_on)
         VALUES (?1, ?2, 'primary', '198.51.100.7', 1, 0, ?3, ?4, ?4)`
      ).bind(peer, DEFAULT_ACCOUNT, tsigId, now),
      env.DB.prepare(
        `INSERT INTO zone_transfers_incoming (zone_id, name, peers, created_on, modified_on) VALUES (?1, ?2, ?3, ?4, ?4)`
      ).bind(id, name, JSON.stringify([peer]), now),
    ]
    if (tsigId)
      stmts.push(
        env.DB.prepare(
          `INSERT INTO transfer_tsigs (id, account_id, name, algo, secret, created_on, modified_on)
           VALUES (?1, ?2, 'notify-key', 'hmac-sha256.', ?3, ?4, ?4) ON CONFLICT DO NOTHING`
        ).bind(tsigId, DEFAULT_ACCOUNT, SECRET, now)
      )
    await env.DB.batch(stmts)
  }
  return { id, name }
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const unb64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0))

async function relay(message: Uint8Array, clientIp: string) {
  const res = await api('POST', '/dns_notify', { client_ip: clientIp, message: b64(message) })
  expect(res.status).toBe(200)
  return unb64(res.body.result.message)
}

describe('POST /zones/{id}/secondary_dns/force_axfr', () => {
  it('refuses a zone that is not secondary, and a secondary zone without incoming settings', async () => {
    const full = await createZone('full')
    expectError(await api('POST', `/zones/${full.id}/secondary_dns/force_axfr`), 400, 10030)
    const bare = await secondaryZone(false, false)
    expectError(await api('POST', `/zones/${bare.id}/secondary_dns/force_axfr`), 400, 10030)
  })

  it('answers 502 naming the failure when no primary can be reached', async () => {
    const z = await secondaryZone(true, false)
    const res = await api('POST', `/zones/${z.id}/secondary_dns/force_axfr`)
    expectError(res, 502, 10031)
    expect(res.body.errors[0]!.message).toContain('198.51.100.7')
  })
})

describe('POST /dns_notify', () => {
  it('accepts a NOTIFY signed with the primary key, from its address, with a signed answer', async () => {
    const z = await secondaryZone(true, true)
    const signed = await signMessage(
      encodeQuery(z.name, 'SOA', { id: 11, opcode: 4, rd: false }),
      key,
      { time: Math.floor(Date.now() / 1000) }
    )
    const answer = await relay(signed.message, '198.51.100.7')
    const body = await new TsigStreamVerifier(key, signed.mac, () =>
      Math.floor(Date.now() / 1000)
    ).next(answer)
    expect(decodeMessage(body)).toMatchObject({ id: 11, qr: true, opcode: 4, rcode: 0 })
  })

  it('refuses a NOTIFY from another address, an unsigned one, and one for a zone that is not secondary', async () => {
    const z = await secondaryZone(true, true)
    const notify = encodeQuery(z.name, 'SOA', { id: 12, opcode: 4, rd: false })
    const signed = await signMessage(notify, key, { time: Math.floor(Date.now() / 1000) })
    expect(
      decodeMessage(splitTsig(await relay(signed.message, '203.0.113.9')).unsigned).rcode
    ).toBe(5)
    expect(decodeMessage(await relay(notify, '198.51.100.7')).rcode).toBe(5)
    const full = await createZone('full')
    const other = encodeQuery(full.name, 'SOA', { id: 13, opcode: 4, rd: false })
    expect(decodeMessage(await relay(other, '198.51.100.7')).rcode).toBe(5)
  })

  it('is for administrator tokens only, and validates its body', async () => {
    expectError(
      await api('POST', '/dns_notify', { client_ip: '1.2.3.4', message: 'AAAA' }, 'nope'),
      403,
      9109
    )
    expectError(
      await api('POST', '/dns_notify', { client_ip: '1.2.3.4', message: '%%' }),
      400,
      9000
    )
  })
})

describe('the cron and secondary zones', () => {
  it('starts the schedule of a secondary zone that has none, once', async () => {
    const z = await secondaryZone(true, false)
    const stub = secondaryStub(env, z.id) as unknown as DurableObjectStub
    const alarm = () =>
      runInDurableObject(stub, (_: unknown, state: DurableObjectState) => state.storage.getAlarm())
    expect(await alarm()).toBeNull()
    expect(await scheduleSecondaries(env)).toBeGreaterThanOrEqual(1)
    expect(await alarm()).not.toBeNull()
    const again: boolean = await secondaryStub(env, z.id).ensureScheduled(z.id)
    expect(again).toBe(false)
  })
})
