/**
 * The copy a secondary zone holds belongs to the zone, not to its incoming settings: deleting the
 * settings and writing them again (`DELETE`, then `POST …/secondary_dns/incoming`) keeps its
 * serial and last good check, so the zone goes on answering from it through failed checks until
 * the SOA's expire (counted from that last good check), and is brought up to date by IXFR from
 * its serial. Settings that no longer name the primary the copy came from pull it whole (AXFR).
 */
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import type { ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { api, dohJson } from '../../../../test/api/helpers.ts'
import {
  primaryPeer,
  secondaryZone,
  type SecondaryTestZone as Zone,
} from '../../../../test/api/incoming-rows.ts'
import { settle } from '../builder/test/helpers.ts'
import { BUNDLED_MIGRATIONS } from '../db/bundled-migrations.ts'
import { fakePrimary, pack, primarySoa as soa, withRcode } from './fake-primary.ts'
import type { IncomingConfig, Primary } from './incoming-config.ts'
import { RECORD_MAPPING } from './record-map.ts'
import type { SecondaryZone } from './secondary-zone.ts'
import { transferFrom, type PullMode } from './transfer-from.ts'
import { secondaryStub } from './secondary-stub.ts'
import type { Connect } from './tcp-transfer.ts'

const SERIAL = 2025030301

const a = (name: string, ip: string): ResponseRR => ({ name, type: 1, ttl: 300, rdata: ip })

/**
 * A primary of `zone` at `serial`, with www at `www`; one serial later it adds ftp, and it
 * answers an IXFR with that difference. `up` false: its connections are refused.
 */
function primaryOf(zone: string, serial: number, www: string) {
  const at = { serial, up: true }
  const ftp = a(`ftp.${zone}`, '192.0.2.22')
  const fake = fakePrimary((kind, id) => {
    const s = at.serial
    if (kind === 'SOA') return pack(zone, id, kind, [soa(zone, s)])
    if (kind === 'IXFR')
      return pack(zone, id, kind, [soa(zone, s), soa(zone, s - 1), soa(zone, s), ftp, soa(zone, s)])
    const records = [a(`www.${zone}`, www), ...(s > serial ? [ftp] : [])]
    return pack(zone, id, kind, [soa(zone, s), ...records, soa(zone, s)])
  })
  const connect: Connect = (address, options) => {
    if (!at.up) throw new Error('connection refused')
    return fake.connect(address, options)
  }
  return { at, asked: fake.asked, connect }
}

/** A peer of the account at `ip` (port 1) that is asked IXFR first. */
const peerAt = (ip: string) => primaryPeer(ip, true)

/** Runs one check of the zone's SecondaryZone, its primaries reached through `primaries` by address. */
function check(zone: Zone, primaries: Record<string, Connect>) {
  return runInDurableObject(
    secondaryStub(env, zone.id) as unknown as DurableObjectStub,
    async (o: unknown) => {
      const object = o as SecondaryZone
      object.transfer = (e: Env, cfg: IncomingConfig, primary: Primary, mode: PullMode) =>
        transferFrom(e, cfg, primary, mode, primaries[primary.ip])
      return object.check(zone.id)
    }
  )
}

/** What deleting the settings leaves in the object once its next alarm has run: no state. */
const clearObject = (zone: Zone) =>
  runInDurableObject(
    secondaryStub(env, zone.id) as unknown as DurableObjectStub,
    async (o: unknown) => (o as SecondaryZone).check(zone.id)
  )

const zoneRow = async (id: string) =>
  (await env.DB.prepare('SELECT serial, secondary_expired FROM zones WHERE id = ?1')
    .bind(id)
    .first<{ serial: number; secondary_expired: number }>())!

async function readd(z: Zone, peer: string) {
  expect((await api('DELETE', z.incoming)).status).toBe(200)
  const body = { name: z.name, peers: [peer], auto_refresh_seconds: 86400 }
  const res = await api('POST', z.incoming, body)
  expect(res.status).toBe(200)
  return res.body.result as Record<string, unknown>
}

async function answers(z: Zone, label: string): Promise<string | undefined> {
  await settle(z.id)
  const res = await dohJson(`${label}.${z.name}`, 'A')
  return res.Status === 0 ? res.Answer?.[0]?.data : `status ${res.Status}`
}

describe('a check that finds the copy current', () => {
  const checkedOn = async (id: string) =>
    (await env.DB.prepare('SELECT secondary_checked_on AS t FROM zones WHERE id = ?1')
      .bind(id)
      .first<{ t: string }>())!.t
  const setCheckedOn = (id: string, t: string) =>
    env.DB.prepare('UPDATE zones SET secondary_checked_on = ?2 WHERE id = ?1').bind(id, t).run()

  it('writes its time to the zone row at most hourly, and GET answers the time the object counts', async () => {
    const peer = await peerAt('198.51.100.35')
    const z = await secondaryZone('confirm-write', peer)
    const p = primaryOf(z.name, SERIAL, '192.0.2.21')
    const primaries = { '198.51.100.35': p.connect }
    expect(await check(z, primaries)).toMatchObject({ status: 'transferred' })
    // Stored a minute ago: within the interval (an hour; a tenth of the 86,400 s expire is more).
    const minuteAgo = new Date(Date.now() - 60_000).toISOString()
    await setCheckedOn(z.id, minuteAgo)
    const before = Math.floor(Date.now() / 1000) * 1000
    expect(await check(z, primaries)).toMatchObject({ status: 'current' })
    expect(await checkedOn(z.id)).toBe(minuteAgo)
    const answered = (await api('GET', z.incoming)).body.result.checked_time as string
    expect(Date.parse(answered)).toBeGreaterThanOrEqual(before)
    // Stored two hours ago: the check writes its own time.
    await setCheckedOn(z.id, new Date(Date.now() - 7_200_000).toISOString())
    const start = Date.now()
    expect(await check(z, primaries)).toMatchObject({ status: 'current' })
    expect(Date.parse(await checkedOn(z.id))).toBeGreaterThanOrEqual(start)
  })
})

describe('deleting and writing again the incoming settings of a secondary zone', () => {
  it("answers the held copy's serial and last good check, as before", async () => {
    const peer = await peerAt('198.51.100.31')
    const z = await secondaryZone('readd-api', peer)
    const p = primaryOf(z.name, SERIAL, '192.0.2.21')
    expect(await check(z, { '198.51.100.31': p.connect })).toMatchObject({
      status: 'transferred',
      serial: SERIAL,
    })
    const before = (await api('GET', z.incoming)).body.result
    expect(before.soa_serial).toBe(SERIAL)
    const again = await readd(z, peer)
    expect(again).toMatchObject({ soa_serial: SERIAL, checked_time: before.checked_time })
    expect(again.created_time).not.toBe(before.created_time)
    expect((await api('GET', z.incoming)).body.result).toMatchObject(again)
  })

  const objects = {
    'the object kept its state': false,
    'the object cleared its state while the settings were gone': true,
  }
  it.each(Object.entries(objects))(
    'goes on answering from its copy when the primary is unreachable, then IXFRs from it (%s)',
    async (_, cleared) => {
      const peer = await peerAt('198.51.100.32')
      const z = await secondaryZone('readd-serve', peer)
      const p = primaryOf(z.name, SERIAL, '192.0.2.21')
      const primaries = { '198.51.100.32': p.connect }
      expect(await check(z, primaries)).toMatchObject({ status: 'transferred', kind: 'axfr' })
      expect(await answers(z, 'www')).toBe('192.0.2.21')

      p.at.up = false
      expect((await api('DELETE', z.incoming)).status).toBe(200)
      if (cleared) expect(await clearObject(z)).toEqual({ status: 'not-secondary' })
      const body = { name: z.name, peers: [peer], auto_refresh_seconds: 86400 }
      expect((await api('POST', z.incoming, body)).status).toBe(200)
      expect(await check(z, primaries)).toMatchObject({ status: 'failed' })
      expect((await zoneRow(z.id)).secondary_expired).toBe(0)
      expect(await answers(z, 'www')).toBe('192.0.2.21')

      // The primary is back, one change later: the difference from the copy's serial.
      p.asked.length = 0
      p.at.up = true
      p.at.serial = SERIAL + 1
      await check(z, primaries)
      expect(p.asked).toContain('IXFR')
      expect(p.asked).not.toContain('AXFR')
      expect(await zoneRow(z.id)).toEqual({ serial: SERIAL + 1, secondary_expired: 0 })
      expect(await answers(z, 'ftp')).toBe('192.0.2.22')
    }
  )

  it('expires at the first failed check when its last good check is older than the SOA expire', async () => {
    const peer = await peerAt('198.51.100.33')
    const z = await secondaryZone('readd-expire', peer)
    const p = primaryOf(z.name, SERIAL, '192.0.2.21')
    const primaries = { '198.51.100.33': p.connect }
    expect(await check(z, primaries)).toMatchObject({ status: 'transferred' })
    p.at.up = false
    expect((await api('DELETE', z.incoming)).status).toBe(200)
    expect(await clearObject(z)).toEqual({ status: 'not-secondary' })
    // Last confirmed two days ago; the primary's SOA expire is one day.
    const long = new Date(Date.now() - 2 * 86400_000).toISOString()
    await env.DB.prepare('UPDATE zones SET secondary_checked_on = ?2 WHERE id = ?1')
      .bind(z.id, long)
      .run()
    const body = { name: z.name, peers: [peer], auto_refresh_seconds: 86400 }
    const res = await api('POST', z.incoming, body)
    expect(res.body.result).toMatchObject({ soa_serial: SERIAL, checked_time: long })
    expect(await check(z, primaries)).toMatchObject({ status: 'failed' })
    expect((await zoneRow(z.id)).secondary_expired).toBe(1)
    expect(await answers(z, 'www')).toBe('status 2')
  })

  it('a zone that no longer holds its copy (it was of another type since) starts without a serial', async () => {
    const peer = await peerAt('198.51.100.34')
    const z = await secondaryZone('readd-type', peer)
    const p = primaryOf(z.name, SERIAL, '192.0.2.21')
    expect(await check(z, { '198.51.100.34': p.connect })).toMatchObject({ status: 'transferred' })
    expect((await api('DELETE', z.incoming)).status).toBe(200)
    for (const type of ['full', 'secondary'])
      expect((await api('PATCH', `/zones/${z.id}`, { type })).status).toBe(200)
    const body = { name: z.name, peers: [peer], auto_refresh_seconds: 86400 }
    const res = await api('POST', z.incoming, body)
    expect(res.status).toBe(200)
    expect(res.body.result.soa_serial).toBeUndefined()
    expect(res.body.result.checked_time).toBeUndefined()
  })
})

describe('incoming settings that no longer name the primary the copy came from', () => {
  it.each(['PUT', 'DELETE and POST'])(
    'pull the zone whole from the new primary, even at a serial not after ours (%s)',
    async (how) => {
      const [old, fresh] = [await peerAt('198.51.100.35'), await peerAt('198.51.100.36')]
      const z = await secondaryZone('moved', old)
      const first = primaryOf(z.name, SERIAL, '192.0.2.21')
      const second = primaryOf(z.name, SERIAL - 1, '192.0.2.99')
      const primaries = { '198.51.100.35': first.connect, '198.51.100.36': second.connect }
      expect(await check(z, primaries)).toMatchObject({ status: 'transferred', serial: SERIAL })
      const body = { name: z.name, peers: [fresh], auto_refresh_seconds: 86400 }
      if (how === 'PUT') expect((await api('PUT', z.incoming, body)).status).toBe(200)
      else expect(await readd(z, fresh)).toMatchObject({ soa_serial: SERIAL })
      expect(await check(z, primaries)).toMatchObject({ status: 'transferred', kind: 'axfr' })
      expect(second.asked).toEqual(['SOA', 'AXFR'])
      expect((await zoneRow(z.id)).serial).toBe(SERIAL - 1)
      expect(await answers(z, 'www')).toBe('192.0.2.99')
      // From then on the copy is the new primary's: its next change comes by IXFR.
      second.asked.length = 0
      second.at.serial = SERIAL
      expect(await check(z, primaries)).toMatchObject({ status: 'transferred', kind: 'ixfr' })
      expect(second.asked).toEqual(['SOA', 'IXFR'])
    }
  )
})

describe('a copy that lacks records an earlier record mapping left out', () => {
  const setReport = (z: Zone, report: string | null) =>
    env.DB.prepare('UPDATE zones SET secondary_skipped = ?2 WHERE id = ?1').bind(z.id, report).run()
  const storedReport = async (z: Zone) =>
    JSON.parse(
      (await env.DB.prepare('SELECT secondary_skipped AS r FROM zones WHERE id = ?1')
        .bind(z.id)
        .first<{ r: string }>())!.r
    ) as unknown

  /**
   * A primary of `zone` at `at.serial` holding www and a record we do not hold (HINFO, so every
   * copy of it lacks something); `at.axfr` false: it refuses AXFR (REFUSED), as some refuse all
   * but IXFR.
   */
  function primaryWithHinfo(zone: string, serial: number) {
    const at = { serial, axfr: true }
    const hinfo: ResponseRR = { name: `h.${zone}`, type: 13, ttl: 300, rdata: '"PC" "Linux"' }
    const fake = fakePrimary((kind, id) => {
      const records = [soa(zone, at.serial), a(`www.${zone}`, '192.0.2.21'), hinfo]
      if (kind === 'SOA') return pack(zone, id, kind, [soa(zone, at.serial)])
      const answer = pack(zone, id, kind, [...records, soa(zone, at.serial)])
      return kind === 'AXFR' && !at.axfr ? withRcode(answer, 5) : answer
    })
    return { at, ...fake }
  }

  async function loadedFrom(label: string, ip: string) {
    const z = await secondaryZone(label, await peerAt(ip))
    const p = primaryWithHinfo(z.name, SERIAL)
    const primaries = { [ip]: p.connect }
    expect(await check(z, primaries)).toMatchObject({ status: 'transferred', kind: 'axfr' })
    expect(await storedReport(z)).toEqual({
      mapping: RECORD_MAPPING,
      types: [{ type: 'HINFO', count: 1, reason: 'the records API does not hold HINFO records' }],
    })
    p.asked.length = 0
    return { z, p, primaries }
  }

  it('is pulled whole at its next check, though its serial is current, and then checked as usual', async () => {
    const { z, p, primaries } = await loadedFrom('remapped', '198.51.100.38')
    // As the first mapping stored it (a bare array): LOC records left out.
    await setReport(z, JSON.stringify([{ type: 'LOC', count: 2, reason: 'not read' }]))
    expect(await check(z, primaries)).toMatchObject({ status: 'transferred', kind: 'axfr' })
    expect(p.asked).toEqual(['SOA', 'AXFR'])
    expect(await storedReport(z)).toMatchObject({ mapping: RECORD_MAPPING })
    // A report of this mapping that lacks something (HINFO) is not pulled again.
    p.asked.length = 0
    expect(await check(z, primaries)).toMatchObject({ status: 'current' })
    expect(p.asked).toEqual(['SOA'])
  })

  it('is pulled whole when it has no report (made before reports were kept), not when it lacked nothing', async () => {
    const { z, p, primaries } = await loadedFrom('remapped-none', '198.51.100.39')
    await setReport(z, null)
    expect(await check(z, primaries)).toMatchObject({ status: 'transferred', kind: 'axfr' })
    await setReport(z, '[]')
    p.asked.length = 0
    expect(await check(z, primaries)).toMatchObject({ status: 'current' })
    expect(p.asked).toEqual(['SOA'])
  })

  it('is not rolled back by a primary behind it, and is checked as usual when the primary refuses AXFR', async () => {
    const { z, p, primaries } = await loadedFrom('remapped-behind', '198.51.100.40')
    const stale = JSON.stringify([{ type: 'LOC', count: 1, reason: 'not read' }])
    await setReport(z, stale)
    p.at.serial = SERIAL - 1
    expect(await check(z, primaries)).toMatchObject({ status: 'current', serial: SERIAL })
    expect(p.asked).toEqual(['SOA'])
    expect((await zoneRow(z.id)).serial).toBe(SERIAL)
    // At the copy's serial, a primary that refuses AXFR: the copy stays current, not failed.
    p.at.serial = SERIAL
    p.at.axfr = false
    p.asked.length = 0
    expect(await check(z, primaries)).toMatchObject({ status: 'current', serial: SERIAL })
    expect(p.asked).toEqual(['SOA', 'AXFR', 'SOA'])
    expect(await storedReport(z)).toEqual(JSON.parse(stale))
    // The checks of the next day do not ask AXFR again.
    p.asked.length = 0
    expect(await check(z, primaries)).toMatchObject({ status: 'current', serial: SERIAL })
    expect(p.asked).toEqual(['SOA'])
  })
})

describe('the migration that gave zones their record of the copy', () => {
  it('takes it from the incoming settings of each zone with a transfer, its first primary as the source', async () => {
    const peer = await peerAt('198.51.100.37')
    const z = await secondaryZone('migrated', peer)
    const p = primaryOf(z.name, SERIAL, '192.0.2.21')
    expect(await check(z, { '198.51.100.37': p.connect })).toMatchObject({ status: 'transferred' })
    const record =
      'SELECT secondary_serial, secondary_checked_on, secondary_source FROM zones WHERE id = ?1'
    const made = await env.DB.prepare(record).bind(z.id).first()
    expect(made).toMatchObject({ secondary_serial: SERIAL, secondary_source: '198.51.100.37#1' })
    await env.DB.prepare(
      'UPDATE zones SET secondary_serial = NULL, secondary_checked_on = NULL, secondary_source = NULL WHERE id = ?1'
    )
      .bind(z.id)
      .run()
    // The settings' columns the backfill reads, as a worker of before 0021 left them.
    const legacy =
      'UPDATE zone_transfers_incoming SET soa_serial = ?2, checked_on = ?3 WHERE zone_id = ?1'
    await env.DB.prepare(legacy)
      .bind(z.id, made!.secondary_serial, made!.secondary_checked_on)
      .run()
    const statements = (name: string) => BUNDLED_MIGRATIONS.find((m) => m.name === name)!.statements
    await env.DB.prepare(statements('0021_secondary_copy.sql').at(-1)!).run()
    expect(await env.DB.prepare(record).bind(z.id).first()).toEqual(made)
    // A transfer that worker committed after 0021 (the zone's serial moved, its record did not):
    // 0023 takes the record from the settings again.
    const later = (made!.secondary_serial as number) + 5
    await env.DB.batch([
      env.DB.prepare('UPDATE zones SET serial = ?2 WHERE id = ?1').bind(z.id, later),
      env.DB.prepare(legacy).bind(z.id, later, '2026-11-28T00:00:00.000Z'),
    ])
    await env.DB.prepare(statements('0023_incoming_copy_backfill.sql')[0]!).run()
    expect(await env.DB.prepare(record).bind(z.id).first()).toEqual({
      ...made,
      secondary_serial: later,
      secondary_checked_on: '2026-11-28T00:00:00.000Z',
    })
  })
})
