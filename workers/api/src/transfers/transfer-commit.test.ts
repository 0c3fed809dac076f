import { env } from 'cloudflare:workers'
import type { MessageRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'
import type { ZoneGuard } from '../commit/zone-change.ts'
import { toRow, type RecordRow } from '../records/model.ts'
import { mapTransferred } from './record-map.ts'
import { TransferStage } from './transfer-commit.ts'
import { withApexNs } from './ixfr-test-transfers.ts'

/** Rows per statement in these tests: small, so a zone of a few hundred records spans several. */
const ROWS = 50

/** env.DB, with the rows each statement of every batch changed written to `changes`. */
function countingDb(changes: number[]): D1Database {
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements)
          changes.push(...results.map((r) => r.meta.changes))
          return results
        }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

async function guardOf(zoneId: string): Promise<ZoneGuard> {
  const row = await env.DB.prepare('SELECT version, change_seq, serial FROM zones WHERE id = ?1')
    .bind(zoneId)
    .first<{ version: number; change_seq: number; serial: number }>()
  return { version: row!.version, changeSeq: row!.change_seq, serial: row!.serial }
}

const a = (zone: string, label: string, i: number): MessageRR => ({
  name: `${label}-${i}.${zone}.`,
  type: 'A',
  typeCode: 1,
  class: 1,
  ttl: 300,
  data: `192.0.2.${i % 250}`,
})

const soa = (zone: string, serial: number): MessageRR => ({
  name: `${zone}.`,
  type: 'SOA',
  typeCode: 6,
  class: 1,
  ttl: 3600,
  data: `ns.primary.test. hostmaster.primary.test. ${serial} 3600 600 86400 300`,
})

type Zone = { id: string; name: string }

/** Receives an AXFR of `count` A records named `label-<i>` and commits it. */
async function axfr(db: D1Database, zone: Zone, label: string, count: number, serial: number) {
  const stage = new TransferStage(db, { zoneId: zone.id, zoneName: zone.name }, ROWS)
  const records = Array.from({ length: count }, (_, i) => a(zone.name, label, i))
  await receive(stage, zone, records, serial)
}

/** Receives an AXFR of `records` through `stage`, commits it at `serial` and discards its rows. */
async function receive(stage: TransferStage, zone: Zone, records: MessageRR[], serial: number) {
  try {
    for (const r of withApexNs(zone.name, records)) await stage.sink('add', r)
    await stage.commit({
      guard: await guardOf(zone.id),
      soa: soa(zone.name, serial),
      replace: true,
    })
  } finally {
    await stage.discard()
  }
}

async function names(zoneId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM dns_records WHERE zone_id = ?1 AND type != 'NS' ORDER BY name"
  )
    .bind(zoneId)
    .all<{ name: string }>()
  return results.map((r) => r.name)
}

describe('committing an AXFR', () => {
  it('replaces a zone larger than one statement bound with no statement touching more rows than it', async () => {
    const zone = await createZone('xfr-commit', 'secondary')
    await axfr(env.DB, zone, 'old', 180, 10)
    expect(await names(zone.id)).toHaveLength(180)

    const changes: number[] = []
    await axfr(countingDb(changes), zone, 'new', 70, 11)
    expect(Math.max(...changes)).toBeLessThanOrEqual(ROWS)
    const held = await names(zone.id)
    expect(held).toHaveLength(70)
    expect(held.every((n) => n.startsWith('new-'))).toBe(true)
    const row = await env.DB.prepare('SELECT serial FROM zones WHERE id = ?1')
      .bind(zone.id)
      .first<{ serial: number }>()
    expect(row?.serial).toBe(11)
  })

  it('deletes a zone of long records in statements of about 20,000,000 characters of content', async () => {
    const zone = await createZone('xfr-commit-long', 'secondary')
    const txt = (label: string, i: number): MessageRR => ({
      ...a(zone.name, label, i),
      type: 'TXT',
      typeCode: 16,
      data: Array.from({ length: 16 }, () => `"${'t'.repeat(250)}"`).join(' '),
    })
    /** An AXFR of `records` at `serial`, replacing the zone whole (no difference), through `db`. */
    const replace = (db: D1Database, records: MessageRR[], serial: number) => {
      const target = { zoneId: zone.id, zoneName: zone.name }
      const stage = new TransferStage(db, target, undefined, undefined, undefined, 0)
      return receive(stage, zone, records, serial)
    }
    // 6,000 records of 4,047 characters: 24 M characters, deleted about 4,900 records a statement.
    await replace(
      env.DB,
      Array.from({ length: 6000 }, (_, i) => txt('long', i)),
      10
    )
    expect(await names(zone.id)).toHaveLength(6000)
    const changes: number[] = []
    await replace(countingDb(changes), [a(zone.name, 'new', 1)], 11)
    expect(Math.max(...changes)).toBeLessThanOrEqual(5000)
    expect(await names(zone.id)).toEqual([`new-1.${zone.name}`])
  })

  it('rolls back whole when the zone changed since the transfer began: the old records stay', async () => {
    const zone = await createZone('xfr-commit-guard', 'secondary')
    await axfr(env.DB, zone, 'old', 120, 20)
    const stale = await guardOf(zone.id)
    await axfr(env.DB, zone, 'mid', 10, 21)
    const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, ROWS)
    try {
      for (let i = 0; i < 60; i++) await stage.sink('add', a(zone.name, 'late', i))
      await expect(
        stage.commit({ guard: stale, soa: soa(zone.name, 22), replace: true })
      ).rejects.toThrow()
    } finally {
      await stage.discard()
    }
    const held = await names(zone.id)
    expect(held).toHaveLength(10)
    expect(held.every((n) => n.startsWith('mid-'))).toBe(true)
  })

  it('stores every column of each record as the records model maps the transferred record', async () => {
    const zone = await createZone('xfr-commit-columns', 'secondary')
    const rr = (name: string, type: string, typeCode: number, data: string): MessageRR => ({
      name: `${name}.${zone.name}.`,
      type,
      typeCode,
      class: 1,
      ttl: 7200,
      data,
    })
    const records = [
      rr('www', 'A', 1, '192.0.2.1'),
      rr('mail', 'MX', 15, `10 mx.${zone.name}.`),
      rr('txt', 'TXT', 16, '"it\'s" "two strings"'),
      rr('_sip._tcp', 'SRV', 33, `5 10 5060 sip.${zone.name}.`),
      rr('alias', 'CNAME', 5, `www.${zone.name}.`),
    ]
    const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, ROWS)
    try {
      for (const r of withApexNs(zone.name, records)) await stage.sink('add', r)
      await stage.commit({ guard: await guardOf(zone.id), soa: soa(zone.name, 5), replace: true })
    } finally {
      await stage.discard()
    }
    const { results } = await env.DB.prepare('SELECT * FROM dns_records WHERE zone_id = ?1')
      .bind(zone.id)
      .all<RecordRow>()
    expect(results).toHaveLength(records.length + 1) // and the apex NS record
    for (const r of records) {
      const name = r.name.slice(0, -1)
      const row = results.find((x) => x.name === name && x.type === r.type)!
      const rec = mapTransferred(r, {
        zoneId: zone.id,
        zoneName: zone.name,
        now: row.created_on,
        newId: () => row.id,
      })
      expect(row).toEqual(toRow(rec!))
    }
  })
})

describe('committing an IXFR', () => {
  it('applies its deletions and additions across several staged rows, in order, and leaves no staged row', async () => {
    const zone = await createZone('ixfr-commit', 'secondary')
    await axfr(env.DB, zone, 'old', 130, 30)
    const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, ROWS)
    try {
      for (let i = 0; i < 120; i++) await stage.sink('delete', a(zone.name, 'old', i))
      // A record deleted and added again with another TTL (how an IXFR changes a TTL).
      await stage.sink('delete', a(zone.name, 'old', 125))
      for (let i = 0; i < 70; i++) await stage.sink('add', a(zone.name, 'new', i))
      await stage.sink('add', { ...a(zone.name, 'old', 125), ttl: 900 })
      await stage.commit({ guard: await guardOf(zone.id), soa: soa(zone.name, 31), replace: false })
    } finally {
      await stage.discard()
    }
    const held = await names(zone.id)
    expect(held).toHaveLength(80)
    expect(held.filter((n) => n.startsWith('old-'))).toHaveLength(10)
    const kept = await env.DB.prepare(
      'SELECT ttl FROM dns_records WHERE zone_id = ?1 AND name = ?2'
    )
      .bind(zone.id, `old-125.${zone.name}`)
      .all<{ ttl: number }>()
    expect(kept.results).toEqual([{ ttl: 900 }])
    const staged = await env.DB.prepare(
      "SELECT count(*) AS n FROM import_staging WHERE zone_id = ?1 AND import_id LIKE 'xfr%'"
    )
      .bind(zone.id)
      .first<{ n: number }>()
    expect(staged?.n).toBe(0)
  })
})

describe('staging a transfer', () => {
  it('writes many records per staged row, so staging and discarding write few rows', async () => {
    const zone = await createZone('xfr-stage-rows', 'secondary')
    const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, ROWS)
    const stagedRows = async () =>
      (await env.DB.prepare('SELECT count(*) AS n FROM import_staging WHERE zone_id = ?1')
        .bind(zone.id)
        .first<{ n: number }>())!.n
    try {
      const records = Array.from({ length: 4 * ROWS - 1 }, (_, i) => a(zone.name, 'r', i))
      for (const r of withApexNs(zone.name, records)) await stage.sink('add', r)
      await stage.commit({ guard: await guardOf(zone.id), soa: soa(zone.name, 3), replace: true })
      expect(await stagedRows()).toBeLessThanOrEqual(4)
    } finally {
      await stage.discard()
    }
    expect(await stagedRows()).toBe(0)
    expect(await names(zone.id)).toHaveLength(4 * ROWS - 1) // and the apex NS record
  })
})
