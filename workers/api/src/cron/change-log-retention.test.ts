/**
 * Change-log retention: built audit entries older than the window go, builder-only entries go once
 * built, nothing unbuilt ever goes, and a deleted zone's log goes entirely once built.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { compactChangeLog, retentionDays } from './change-log-retention.ts'
import { strictD1 } from '@edgedns/strict-bindings'
import { api, createZone } from '../../../../test/api/helpers.ts'
import { a, transfer } from '../transfers/ixfr-test-transfers.ts'

const DAY = 86_400_000

async function log(zoneId: string): Promise<{ seq: number; op: string }[]> {
  return (
    await env.DB.prepare('SELECT seq, op FROM change_log WHERE zone_id = ?1 ORDER BY seq')
      .bind(zoneId)
      .all<{ seq: number; op: string }>()
  ).results
}

async function markBuilt(zoneId: string, zoneName: string, seq: number): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO build_state (zone_id, zone_name, built_seq) VALUES (?1, ?2, ?3)
     ON CONFLICT (zone_id) DO UPDATE SET built_seq = excluded.built_seq`
  )
    .bind(zoneId, zoneName, seq)
    .run()
}

describe('change-log retention', () => {
  it('keeps the audit window and drops older audit entries and built builder-only entries', async () => {
    const z = await createZone('retain')
    const rec = (
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: 'www',
        content: '192.0.2.1',
      })
    ).body.result
    await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { content: '192.0.2.2' })
    await api('PATCH', `/zones/${z.id}/dns_settings`, { ns_ttl: 3600 })
    await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { content: '192.0.2.3' })
    await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { content: '192.0.2.4' })
    expect((await log(z.id)).map((r) => r.op)).toEqual([
      'zone',
      'create',
      'update',
      'zone',
      'update',
      'update',
    ])
    const now = Date.now()
    // Seq 1–3 are 100 days old; the builder has built up to seq 5.
    await env.DB.prepare('UPDATE change_log SET created_on = ?2 WHERE zone_id = ?1 AND seq <= 3')
      .bind(z.id, new Date(now - 100 * DAY).toISOString())
      .run()
    await markBuilt(z.id, z.name, 5)

    const r = await compactChangeLog(strictD1(env.DB), {
      retentionDays: 90,
      now,
      startAfter: '',
      zonesPerRun: 10_000,
    })
    expect(r.deleted).toBeGreaterThanOrEqual(4)
    // Old audit entries (2, 3) and built settings entries (1, 4) are gone; 5 and 6 are recent.
    expect(await log(z.id)).toEqual([
      { seq: 5, op: 'update' },
      { seq: 6, op: 'update' },
    ])
    // The serials IXFR can still start from: the one before the oldest entry left, and later ones.
    const serials = await env.DB.prepare(
      'SELECT seq FROM zone_serials WHERE zone_id = ?1 ORDER BY seq'
    )
      .bind(z.id)
      .all<{ seq: number }>()
    expect(serials.results.map((r) => r.seq)).toEqual([4, 5, 6])

    const audit = await api('GET', `/zones/${z.id}/dns_records/audit`)
    expect(audit.body.result.map((a: any) => [a.seq, a.before.content, a.after.content])).toEqual([
      [6, '192.0.2.3', '192.0.2.4'],
      [5, '192.0.2.2', '192.0.2.3'],
    ])
  })

  it('keeps the SOA and replace entries of transfers into a secondary zone for the window, as record entries', async () => {
    const zone = await createZone('retain-soa', 'secondary')
    await transfer(zone, [['add', a(zone.name, 1)]], 10, true)
    await transfer(zone, [['add', a(zone.name, 2)]], 11, false)
    await transfer(zone, [['add', a(zone.name, 3)]], 12, false)
    const ops = (await log(zone.id)).map((r) => r.op)
    expect(ops.slice(-5)).toEqual(['replace', 'create', 'soa', 'create', 'soa'])
    const top = (await log(zone.id)).at(-1)!.seq
    const now = Date.now()
    // The first IXFR's entries (two before the last two) are 100 days old; all are built.
    await env.DB.prepare('UPDATE change_log SET created_on = ?2 WHERE zone_id = ?1 AND seq <= ?3')
      .bind(zone.id, new Date(now - 100 * DAY).toISOString(), top - 2)
      .run()
    await markBuilt(zone.id, zone.name, top)
    await compactChangeLog(strictD1(env.DB), {
      retentionDays: 90,
      now,
      startAfter: '',
      zonesPerRun: 10_000,
    })
    // The old entries (the `replace` and the first IXFR's) went with the window; the recent stay.
    expect((await log(zone.id)).map((r) => r.op)).toEqual(['create', 'soa'])
    // A built `replace` inside the window stays (an account move may yet have to read it).
    // (The AXFR holds a record twice, so it replaces the zone whole rather than as a difference.)
    const twice = a(zone.name, 4)
    await transfer(
      zone,
      [
        ['add', twice],
        ['add', { ...twice, ttl: 900 }],
      ],
      13,
      true
    )
    await markBuilt(zone.id, zone.name, top + 1)
    await compactChangeLog(strictD1(env.DB), {
      retentionDays: 90,
      now,
      startAfter: '',
      zonesPerRun: 10_000,
    })
    expect((await log(zone.id)).map((r) => r.op)).toEqual(['create', 'soa', 'replace'])
  })

  it('never removes an unbuilt entry, and removes a deleted zone’s whole log once built', async () => {
    // Zones the API never saw (no zones row): their logs stand for deleted zones.
    const gone = 'f'.repeat(31) + '1'
    const old = new Date(Date.now() - 400 * DAY).toISOString()
    const recent = new Date().toISOString()
    for (const [seq, op, at] of [
      [1, 'zone', old],
      [2, 'create', old],
      [3, 'update', recent],
      [4, 'zone_delete', recent],
    ] as const) {
      await env.DB.prepare(
        'INSERT INTO change_log (zone_id, seq, op, created_on) VALUES (?1, ?2, ?3, ?4)'
      )
        .bind(gone, seq, op, at)
        .run()
    }
    await markBuilt(gone, 'gone.example', 1)
    await compactChangeLog(env.DB, {
      retentionDays: 90,
      now: Date.now(),
      startAfter: '',
      zonesPerRun: 10_000,
    })
    expect((await log(gone)).map((r) => r.seq)).toEqual([2, 3, 4])
    await markBuilt(gone, 'gone.example', 4)
    await compactChangeLog(env.DB, {
      retentionDays: 90,
      now: Date.now(),
      startAfter: '',
      zonesPerRun: 10_000,
    })
    expect(await log(gone)).toEqual([])
  })

  it('reads the window from CHANGE_LOG_RETENTION_DAYS', () => {
    expect(retentionDays({})).toBe(90)
    expect(retentionDays({ CHANGE_LOG_RETENTION_DAYS: '7' })).toBe(7)
    expect(retentionDays({ CHANGE_LOG_RETENTION_DAYS: 'soon' })).toBe(90)
  })
})
