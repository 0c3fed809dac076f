import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { acceptNotify } from '../../workers/api/src/transfers/notify-accept.ts'
import { scheduleSecondaries } from '../../workers/api/src/transfers/schedule-secondaries.ts'
import { secondaryStub } from '../../workers/api/src/transfers/secondary-stub.ts'
import {
  NOTIFY_DEFER_MS,
  type SecondaryZone,
} from '../../workers/api/src/transfers/secondary-zone.ts'
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
let n = 0
let tsigId: Promise<string> | null = null

/** The account's TSIG key `notify-key`, made once through the API. */
function notifyKeyId(): Promise<string> {
  tsigId ??= api('POST', `/accounts/${DEFAULT_ACCOUNT}/secondary_dns/tsigs`, {
    name: 'notify-key',
    algo: 'hmac-sha256.',
    secret: SECRET,
  }).then((res) => {
    expect(res.status).toBe(200)
    return res.body.result.id as string
  })
  return tsigId
}

/** A secondary zone; with `withIncoming`, a primary at 198.51.100.7 configured through the API. */
async function secondaryZone(withIncoming: boolean, tsig: boolean) {
  const name = `sec-${Date.now().toString(36)}-${n++}.example`
  const res = await api('POST', '/zones', {
    name,
    account: { id: DEFAULT_ACCOUNT },
    type: 'secondary',
  })
  const id = res.body.result.id as string
  if (withIncoming) {
    const peers = `/accounts/${DEFAULT_ACCOUNT}/secondary_dns/peers`
    const peer = (await api('POST', peers, { name: 'primary' })).body.result.id as string
    const updated = await api('PUT', `${peers}/${peer}`, {
      name: 'primary',
      ip: '198.51.100.7',
      port: 1,
      ...(tsig ? { tsig_id: await notifyKeyId() } : {}),
    })
    expect(updated.status).toBe(200)
    const incoming = await api('POST', `/zones/${id}/secondary_dns/incoming`, {
      name,
      peers: [peer],
      auto_refresh_seconds: 86400,
    })
    expect(incoming.status).toBe(200)
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
    expectError(await api('POST', `/zones/${full.id}/secondary_dns/force_axfr`), 400, 10205)
    const bare = await secondaryZone(false, false)
    expectError(await api('POST', `/zones/${bare.id}/secondary_dns/force_axfr`), 404, 10203)
  })

  it('answers 502 naming the failure when no primary can be reached', async () => {
    const z = await secondaryZone(true, false)
    const res = await api('POST', `/zones/${z.id}/secondary_dns/force_axfr`)
    expectError(res, 502, 10031)
    expect(res.body.errors[0]!.message).toContain('198.51.100.7')
  })
})

describe('GET /zones/{id}/secondary_dns/incoming: how the checks stand', () => {
  it('answers whether the zone serves, its failed checks, the last error and the next check', async () => {
    const z = await secondaryZone(true, false)
    const path = `/zones/${z.id}/secondary_dns/incoming`
    expect((await api('GET', path)).body.result).toMatchObject({ serving: false })
    expectError(await api('POST', `/zones/${z.id}/secondary_dns/force_axfr`), 502, 10031)
    // The next check is absent while a check runs (the first one, started by the settings).
    const scheduled = async () => {
      for (let i = 0; i < 100; i++) {
        const result = (await api('GET', path)).body.result
        if (result.next_check_time) return result
        await new Promise((r) => setTimeout(r, 20))
      }
      throw new Error('no check scheduled')
    }
    const failed = await scheduled()
    expect(failed.serving).toBe(false)
    expect(failed.failed_checks).toBeGreaterThanOrEqual(1)
    expect(failed.last_error).toContain('198.51.100.7')
    expect(failed).not.toHaveProperty('expires_time') // no check has succeeded
    // The settings' first check, started during the forced one, may have set it to now.
    expect(Number.isFinite(Date.parse(failed.next_check_time))).toBe(true)

    // A good check clears the failures and the error.
    await runInDurableObject(
      secondaryStub(env, z.id) as unknown as DurableObjectStub,
      async (instance: unknown) => {
        const object = instance as SecondaryZone
        object.transfer = async () => ({ status: 'current' })
        await object.check(z.id)
      }
    )
    const good = await scheduled()
    expect(good).toMatchObject({ failed_checks: 0 })
    expect(good).not.toHaveProperty('last_error')
    expect(good.next_check_time).toBeTypeOf('string')
    // The zone holds no copy: nothing of a primary's expires.
    expect(good).not.toHaveProperty('expires_time')
    // Written settings answer without the check's fields (they describe the settings made).
    const put = await api('PUT', path, {
      name: z.name,
      peers: failed.peers,
      auto_refresh_seconds: 600,
    })
    expect(put.body.result).not.toHaveProperty('failed_checks')
    expect(put.body.result).toHaveProperty('serving')
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

  it('is for tokens with Zone Transfer Relay covering the zone, and validates its body', async () => {
    const z = await secondaryZone(true, false)
    const notify = encodeQuery(z.name, 'SOA', { id: 14, opcode: 4, rd: false })
    const tokenFor = async (group: string, account: string) =>
      (
        await api('POST', `/accounts/${DEFAULT_ACCOUNT}/tokens`, {
          name: `${group} ${account}`,
          policies: [
            {
              effect: 'allow',
              permission_groups: [{ name: group }],
              resources: { [`com.cloudflare.api.account.${account}`]: '*' },
            },
          ],
        })
      ).body.result.value as string
    const send = (token: string) =>
      api('POST', '/dns_notify', { client_ip: '198.51.100.7', message: b64(notify) }, token)
    const relayToken = await tokenFor('Zone Transfer Relay', DEFAULT_ACCOUNT)
    const accepted = await send(relayToken)
    expect(accepted.status).toBe(200)
    expect(decodeMessage(unb64(accepted.body.result.message)).rcode).toBe(0)
    expectError(await send(await tokenFor('DNS Read', DEFAULT_ACCOUNT)), 403, 10000)
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

describe('NOTIFYs past the account’s budget', () => {
  it('are answered, and their check put off by one to ten minutes', async () => {
    const z = await secondaryZone(true, false)
    const inZone = <T>(fn: (state: DurableObjectState) => Promise<T>) =>
      runInDurableObject(
        secondaryStub(env, z.id) as unknown as DurableObjectStub,
        (_: unknown, state: DurableObjectState) => fn(state)
      )
    // The first check (started by the settings) fails, then waits a minute for its retry.
    for (let i = 0; i < 200; i++) {
      const alarm = await inZone((state) => state.storage.getAlarm())
      if (alarm !== null && alarm > Date.now() + 30_000) break
      await new Promise((r) => setTimeout(r, 20))
    }
    // The account's budget is spent: its limiter refuses, as the object asks it.
    const accounts: string[] = []
    await runInDurableObject(
      secondaryStub(env, z.id) as unknown as DurableObjectStub,
      (instance: unknown) =>
        void ((instance as SecondaryZone).notifyBudget = async (account) => (
          accounts.push(account),
          false
        ))
    )
    const before = Date.now()
    const notify = encodeQuery(z.name, 'SOA', { id: 15, opcode: 4, rd: false })
    const answer = await acceptNotify(env as Env, notify, '198.51.100.7', () => true)
    expect(accounts).toEqual([DEFAULT_ACCOUNT])
    expect(decodeMessage(answer!)).toMatchObject({ id: 15, qr: true, opcode: 4, rcode: 0 })
    const notBefore = await inZone((state) => state.storage.get<number>('pendingNotify'))
    expect(notBefore).toBeGreaterThanOrEqual(before + NOTIFY_DEFER_MS.min)
    expect(notBefore).toBeLessThanOrEqual(Date.now() + NOTIFY_DEFER_MS.max)
    expect(await inZone((state) => state.storage.getAlarm())).toBeGreaterThan(before + 30_000)
  })
})

describe('starting the checks of a secondary zone', () => {
  const alarmOf = (zoneId: string) =>
    runInDurableObject(
      secondaryStub(env, zoneId) as unknown as DurableObjectStub,
      (_: unknown, state: DurableObjectState) => state.storage.getAlarm()
    )

  it('writing incoming settings schedules the zone’s first check', async () => {
    const z = await secondaryZone(true, false)
    let alarm: number | null = null
    for (let i = 0; i < 50 && alarm === null; i++) {
      alarm = await alarmOf(z.id)
      if (alarm === null) await new Promise((r) => setTimeout(r, 20))
    }
    expect(alarm).not.toBeNull()
  })

  it('the cron starts the schedule of a secondary zone that has none, once', async () => {
    const z = await secondaryZone(true, false)
    const stub = secondaryStub(env, z.id) as unknown as DurableObjectStub
    // As if the object had lost its schedule (created before this code, or its alarm deleted).
    for (let i = 0; i < 50 && (await alarmOf(z.id)) === null; i++)
      await new Promise((r) => setTimeout(r, 20))
    await runInDurableObject(stub, (_: unknown, state: DurableObjectState) =>
      state.storage.deleteAlarm()
    )
    expect(await alarmOf(z.id)).toBeNull()
    expect(await scheduleSecondaries(env)).toBeGreaterThanOrEqual(1)
    expect(await alarmOf(z.id)).not.toBeNull()
    const again: boolean = await secondaryStub(env, z.id).ensureScheduled(z.id)
    expect(again).toBe(false)
  })

  it('the cron reaches a zone without a schedule past more failing zones than one run looks at', async () => {
    // Two zones whose checks fail (no primary answers at 198.51.100.7), both never checked: the
    // one later in zone-id order loses its schedule; a run that looks at one zone only must
    // still reach it (runs start at a random place in zone-id order, here at that zone).
    const a = await secondaryZone(true, false)
    const b = await secondaryZone(true, false)
    const [first, later] = a.id < b.id ? [a, b] : [b, a]
    for (const z of [first, later])
      for (let i = 0; i < 50 && (await alarmOf(z.id)) === null; i++)
        await new Promise((r) => setTimeout(r, 20))
    const stub = secondaryStub(env, later.id) as unknown as DurableObjectStub
    await runInDurableObject(stub, (_: unknown, state: DurableObjectState) =>
      state.storage.deleteAlarm()
    )
    expect(await scheduleSecondaries(env, Date.now(), { perRun: 1, start: later.id })).toBe(1)
    expect(await alarmOf(later.id)).not.toBeNull()
  })
})
