/**
 * The state and schedule of a secondary zone (SecondaryZone, secondary-zone.ts): its serial is the
 * primary's, a NOTIFY during a check is deferred rather than lost, checks NOTIFYs ask for are
 * spaced, and only a good check makes the zone answer. The pull itself is replaced (`transfer`)
 * where a check must be held or counted.
 */
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import type { MessageRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { api } from '../../../../test/api/helpers.ts'
import {
  secondaryZone,
  type SecondaryTestZone as Zone,
} from '../../../../test/api/incoming-rows.ts'
import { kvMeta, settle, sleep } from '../builder/test/helpers.ts'
import type { IncomingConfig } from './incoming-config.ts'
import { NOTIFY_DEFER_MS, type SecondaryZone } from './secondary-zone.ts'
import type { CheckResult } from './transfer-from.ts'
import { secondaryStub } from './secondary-stub.ts'
import { TransferStage } from './transfer-commit.ts'

const PRIMARY = 2025010101

async function zoneRow(zoneId: string) {
  return (await env.DB.prepare(
    'SELECT version, change_seq, serial, secondary_expired FROM zones WHERE id = ?1'
  )
    .bind(zoneId)
    .first<{ version: number; change_seq: number; serial: number; secondary_expired: number }>())!
}

const soa = (zone: string, serial: number): MessageRR => ({
  name: `${zone}.`,
  type: 'SOA',
  typeCode: 6,
  class: 1,
  ttl: 3600,
  data: `ns.primary.test. hostmaster.primary.test. ${serial} 3600 600 86400 300`,
})

/** Commits an AXFR of the zone at `serial` (what a check's transfer commits). */
async function transferred(z: Zone, serial: number): Promise<void> {
  const row = await zoneRow(z.id)
  const guard = { version: row.version, changeSeq: row.change_seq, serial: row.serial }
  const stage = new TransferStage(env.DB, { zoneId: z.id, zoneName: z.name })
  try {
    const apex = soa(z.name, serial)
    await stage.sink('add', { ...apex, type: 'NS', typeCode: 2, data: 'ns.primary.test.' })
    await stage.sink('add', { ...apex, type: 'A', typeCode: 1, data: '192.0.2.1' })
    await stage.commit({ guard, soa: soa(z.name, serial), replace: true })
  } finally {
    await stage.discard()
  }
}

/** Runs `fn` in the zone's SecondaryZone object. */
function inObject<T>(
  zoneId: string,
  fn: (object: SecondaryZone, state: DurableObjectState) => Promise<T>
): Promise<T> {
  return runInDurableObject(
    secondaryStub(env, zoneId) as unknown as DurableObjectStub,
    (object: unknown, state: DurableObjectState) => fn(object as SecondaryZone, state)
  )
}

describe("a secondary zone's serial is its primary's", () => {
  it('zone-level changes keep it, and the builder still publishes them', async () => {
    const z = await secondaryZone('serial')
    await transferred(z, PRIMARY)
    expect((await zoneRow(z.id)).serial).toBe(PRIMARY)
    const vanity = await api('PATCH', `/zones/${z.id}`, {
      vanity_name_servers: ['ns1.vanity.example'],
    })
    expect(vanity.status).toBe(200)
    expect((await api('PATCH', `/zones/${z.id}`, { paused: true })).status).toBe(200)
    const row = await zoneRow(z.id)
    expect(row.serial).toBe(PRIMARY)
    await settle(z.id)
    const meta = await kvMeta(z.name)
    expect(meta?.ns).toEqual(['ns1.vanity.example'])
    expect(meta?.serial).toBe(PRIMARY)
    // A full zone's serial still moves with every change.
    const full = await api('PATCH', `/zones/${z.id}`, { type: 'full' })
    expect(full.status).toBe(200)
    expect((await api('PATCH', `/zones/${z.id}`, { paused: false })).status).toBe(200)
    expect((await zoneRow(z.id)).serial).toBeGreaterThan(PRIMARY)
  })

  it('a check asks from the serial of the copy held; one that was another type since is pulled whole', async () => {
    const z = await secondaryZone('asks')
    await transferred(z, PRIMARY)
    expect((await api('PATCH', `/zones/${z.id}`, { paused: true })).status).toBe(200)
    const asked: (number | null)[] = []
    const check = () =>
      inObject(z.id, (object) => {
        object.transfer = async (_env: Env, cfg: IncomingConfig) => {
          asked.push(cfg.soaSerial)
          return { status: 'current', serial: cfg.soaSerial ?? 0 }
        }
        return object.check(z.id)
      })
    await check()
    for (const type of ['full', 'secondary'])
      expect((await api('PATCH', `/zones/${z.id}`, { type })).status).toBe(200)
    await check()
    expect(asked).toEqual([PRIMARY, null])
  })
})

describe('a NOTIFY during a check (RFC 1996 §4.4)', () => {
  it('is followed by one more check when the running one ends, however many arrive', async () => {
    const z = await secondaryZone('notify')
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    let checks = 0
    const failed: CheckResult = { status: 'failed', error: 'test primary' }
    await inObject(z.id, async (object) => {
      object.transfer = async () => {
        if (++checks === 1) await held
        return failed
      }
      const running = object.check(z.id)
      while (checks === 0) await sleep(1)
      for (let i = 0; i < 50; i++) await object.notify(z.id)
      release()
      expect(await running).toEqual(failed)
    })
    // The follow-up check runs from the alarm, at once.
    for (let i = 0; i < 500 && checks < 2; i++) await sleep(10)
    expect(checks).toBe(2)
    let alarm: number | null = null
    for (let i = 0; i < 500; i++) {
      alarm = await inObject(z.id, async (_, state) => state.storage.getAlarm())
      if (alarm !== null && alarm > Date.now() + 30_000) break
      await sleep(10)
    }
    // After it, the schedule's next check (a minute: the first transfer is still to come).
    expect(alarm).toBeGreaterThan(Date.now() + 30_000)
    expect(checks).toBe(2)
  })

  it("one that arrives while a transfer's last steps run is followed by one more check", async () => {
    const z = await secondaryZone('finishing')
    let release = () => {}
    const finishing = new Promise<void>((r) => (release = r))
    const asked: (number | null)[] = []
    await inObject(z.id, async (object, state) => {
      object.transfer = async (_env: Env, cfg: IncomingConfig) => {
        asked.push(cfg.soaSerial)
        if (asked.length > 1) return { status: 'current', serial: PRIMARY }
        // A transfer committed; the builder's first step and the discard are still under way.
        await transferred(z, PRIMARY)
        return { status: 'transferred', serial: PRIMARY, kind: 'axfr', finishing }
      }
      const running = object.check(z.id)
      // The check has recorded its result and set its next check (after the SOA's refresh)...
      for (let i = 0; i < 500; i++) {
        const alarm = await state.storage.getAlarm()
        if (asked.length > 0 && alarm !== null && alarm > Date.now() + 30_000) break
        await sleep(5)
      }
      // ...when the primary, changed again, sends its NOTIFY.
      await object.notify(z.id)
      release()
      await running
    })
    for (let i = 0; i < 500 && asked.length < 2; i++) await sleep(10)
    expect(asked).toEqual([null, PRIMARY])
    let alarm: number | null = null
    for (let i = 0; i < 500; i++) {
      alarm = await inObject(z.id, async (_, state) => state.storage.getAlarm())
      if (alarm !== null && alarm > Date.now() + 30_000) break
      await sleep(10)
    }
    expect(alarm).toBeGreaterThan(Date.now() + 30_000)
    expect(asked).toHaveLength(2)
  })

  it('while none runs, schedules a check now; more before it runs change nothing', async () => {
    const z = await secondaryZone('idle')
    await inObject(z.id, async (object, state) => {
      object.transfer = async () => ({ status: 'failed', error: 'test primary' })
      const later = Date.now() + 3_600_000
      await state.storage.setAlarm(later)
      await object.notify(z.id)
      const alarm = await state.storage.getAlarm()
      expect(alarm).not.toBeNull()
      expect(alarm!).toBeLessThanOrEqual(Date.now())
      await object.notify(z.id)
      expect(await state.storage.getAlarm()).toBe(alarm)
    })
  })
})

describe('the account’s budget of checks NOTIFYs ask for', () => {
  it('is spent only by a NOTIFY that asks for a new check; past it the check waits its deferral', async () => {
    const z = await secondaryZone('deferred')
    await inObject(z.id, async (object, state) => {
      object.transfer = async () => ({ status: 'failed', error: 'test primary' })
      const asked: string[] = []
      let within = false
      object.notifyBudget = async (account) => (asked.push(account), within)
      await state.storage.setAlarm(Date.now() + 3_600_000)
      const before = Date.now()
      await object.notify(z.id, 'acct')
      const deferred = (await state.storage.getAlarm())!
      expect(deferred).toBeGreaterThanOrEqual(before + NOTIFY_DEFER_MS.min)
      expect(deferred).toBeLessThanOrEqual(Date.now() + NOTIFY_DEFER_MS.max)
      // More NOTIFYs join the pending check: they neither spend the budget nor move the alarm.
      within = true
      for (let i = 0; i < 5; i++) await object.notify(z.id, 'acct')
      expect(asked).toEqual(['acct'])
      expect(await state.storage.getAlarm()).toBe(deferred)
      // Within the budget, a NOTIFY with none pending checks at once; an alarm due sooner (a
      // refresh) is left as it is.
      await state.storage.deleteAll()
      await object.notify(z.id, 'acct')
      expect((await state.storage.getAlarm())!).toBeLessThanOrEqual(Date.now())
      await state.storage.deleteAll()
      within = false
      const refresh = Date.now() + 10_000
      await state.storage.setAlarm(refresh)
      await object.notify(z.id, 'acct')
      expect(await state.storage.getAlarm()).toBe(refresh)
      expect(asked).toHaveLength(3)
    })
  })
})

describe('checks a NOTIFY asks for are spaced', () => {
  const failed: CheckResult = { status: 'failed', error: 'test primary' }

  it('a NOTIFY after a quiet interval checks at once; one within the interval waits for its end, force_axfr does not', async () => {
    const z = await secondaryZone('spaced')
    const starts: number[] = []
    await inObject(z.id, async (object, state) => {
      object.transfer = async () => (starts.push(Date.now()), failed)
      await object.notify(z.id)
      expect((await state.storage.getAlarm())!).toBeLessThanOrEqual(Date.now())
    })
    for (let i = 0; i < 500 && starts.length < 1; i++) await sleep(10)
    expect(starts).toHaveLength(1)
    await inObject(z.id, async (object, state) => {
      // Let the check that started end, so that the next NOTIFY is not one during a check.
      await object.check(z.id)
      expect(starts).toHaveLength(2)
      const begun = (await state.storage.get<number>('notifyCheckAt'))!
      await object.notify(z.id)
      expect(await state.storage.getAlarm()).toBe(begun + 5_000)
      expect(await state.storage.getAlarm()).toBeGreaterThan(Date.now())
      // An operator's full transfer runs now.
      await object.check(z.id, true)
      expect(starts).toHaveLength(3)
      // After an interval with no check a NOTIFY asked for, the next one is acted on at once.
      object.notifySpacingMs = 100
      await sleep(150)
      await object.notify(z.id)
      expect((await state.storage.getAlarm())!).toBeLessThanOrEqual(Date.now())
    })
    for (let i = 0; i < 500 && starts.length < 4; i++) await sleep(10)
    expect(starts).toHaveLength(4)
  })

  it('a stream of NOTIFYs makes at most one check an interval, and the last still makes one', async () => {
    const z = await secondaryZone('stream')
    const spacing = 400
    const starts: number[] = []
    await inObject(z.id, async (object, state) => {
      object.notifySpacingMs = spacing
      // When each check began, as the object recorded it.
      object.transfer = async () => {
        starts.push((await state.storage.get<number>('notifyCheckAt'))!)
        return failed
      }
    })
    const until = Date.now() + 3 * spacing
    let last = 0
    while (Date.now() < until) {
      last = Date.now()
      await inObject(z.id, (object) => object.notify(z.id))
      await sleep(10)
    }
    for (let i = 0; i < 500 && !starts.some((t) => t >= last); i++) await sleep(10)
    expect(starts.some((t) => t >= last)).toBe(true)
    for (let i = 1; i < starts.length; i++)
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(spacing)
    expect(starts.length).toBeLessThanOrEqual(5)
  })
})

describe('only a good check makes a secondary zone answer', () => {
  it('a zone starts not answered; a failed check leaves it so, a transfer ends it', async () => {
    const z = await secondaryZone('loaded')
    expect((await zoneRow(z.id)).secondary_expired).toBe(1)
    await inObject(z.id, async (object) => {
      object.transfer = async () => ({ status: 'failed', error: 'test primary' })
      await object.check(z.id)
    })
    expect((await zoneRow(z.id)).secondary_expired).toBe(1)
    await transferred(z, PRIMARY)
    expect((await zoneRow(z.id)).secondary_expired).toBe(0)
  })

  it('an expired zone whose incoming settings were written again stays expired until a good check', async () => {
    const z = await secondaryZone('expired')
    await transferred(z, PRIMARY)
    await env.DB.prepare('UPDATE zones SET secondary_expired = 1 WHERE id = ?1').bind(z.id).run()
    // The zone holds no copy (its record of one is gone).
    await env.DB.prepare('UPDATE zones SET secondary_serial = NULL WHERE id = ?1').bind(z.id).run()
    let up = false
    await inObject(z.id, async (object, state) => {
      // What deleting the incoming settings leaves: no state (the object deletes all it kept).
      await state.storage.deleteAll()
      // Without a serial held, a primary that answers is pulled whole: a transfer.
      object.transfer = async (_env: Env, cfg: IncomingConfig): Promise<CheckResult> => {
        expect(cfg.soaSerial).toBeNull()
        if (!up) return { status: 'failed', error: 'test primary' }
        await transferred(z, PRIMARY + 1)
        return { status: 'transferred', serial: PRIMARY + 1, kind: 'axfr' }
      }
      await object.check(z.id)
      expect((await zoneRow(z.id)).secondary_expired).toBe(1)
      up = true
      await object.check(z.id)
    })
    expect(await zoneRow(z.id)).toMatchObject({ secondary_expired: 0, serial: PRIMARY + 1 })
  })
})

describe('how the checks stand (checkStatus)', () => {
  it('a copy held expires its SOA expire after its last good check, though the object lost its state', async () => {
    const z = await secondaryZone('status')
    await transferred(z, PRIMARY)
    const { checked } = (await env.DB.prepare(
      'SELECT secondary_checked_on AS checked FROM zones WHERE id = ?1'
    )
      .bind(z.id)
      .first<{ checked: string }>())!
    const expires = (Math.floor(Date.parse(checked) / 1000) + 86400) * 1000
    await inObject(z.id, async (object, state) => {
      await state.storage.deleteAll()
      expect((await object.checkStatus(z.id)).expiresAt).toBe(expires)
    })
    const settings = (await api('GET', z.incoming)).body.result
    expect(settings.expires_time).toBe(new Date(expires).toISOString())
  })

  it('a zone without a copy has no expiry, with or without a saved state', async () => {
    const z = await secondaryZone('status-none')
    await inObject(z.id, async (object, state) => {
      expect((await object.checkStatus(z.id)).expiresAt).toBeNull()
      object.transfer = async () => ({ status: 'failed', error: 'test primary' })
      await object.check(z.id)
      expect(await object.checkStatus(z.id)).toMatchObject({ expiresAt: null, failures: 1 })
      await state.storage.deleteAll()
      expect((await object.checkStatus(z.id)).expiresAt).toBeNull()
    })
  })
})
