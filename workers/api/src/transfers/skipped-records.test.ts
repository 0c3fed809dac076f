/**
 * What the copy a secondary zone holds lacks: each transfer's records left out, counted by type,
 * recorded with the copy and answered by its incoming settings as `skipped_records`; an IXFR moves
 * the counts of the copy it applies to, an AXFR starts them anew.
 */
import { env } from 'cloudflare:workers'
import type { ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { api } from '../../../../test/api/helpers.ts'
import { secondaryZone } from '../../../../test/api/incoming-rows.ts'
import { a, ixfrPrimaryOf, rr, transfer, type Step } from './ixfr-test-transfers.ts'
import { fakePrimary, pack, primarySoa as wSoa } from './fake-primary.ts'
import { transferFrom } from './transfer-from.ts'
import { RECORD_MAPPING } from './record-map.ts'
import { parseSkipped, reportAfter, SkipTally, storedReport } from './skipped-records.ts'

describe('the tally of records a transfer left out', () => {
  it('reports an AXFR by type, the most skipped first, with the first reason', () => {
    const t = new SkipTally()
    t.note('add', 'HINFO', 'first')
    t.note('add', 'RRSIG', 'r')
    t.note('add', 'RRSIG', 'r2')
    t.note('add', 'HINFO', 'second')
    t.note('add', 'NSEC', 'n')
    expect(t.total).toBe(5)
    expect(t.report([], true)).toEqual([
      { type: 'HINFO', count: 2, reason: 'first' },
      { type: 'RRSIG', count: 2, reason: 'r' },
      { type: 'NSEC', count: 1, reason: 'n' },
    ])
  })

  it('moves the counts of the copy an IXFR applies to, dropping types it no longer lacks', () => {
    const t = new SkipTally()
    t.note('delete', 'NSEC', 'n')
    t.note('delete', 'RRSIG', 'r')
    t.note('add', 'RRSIG', 'r')
    t.note('add', 'SPF', 'spf')
    const held = [
      { type: 'RRSIG', count: 4, reason: 'held' },
      { type: 'NSEC', count: 1, reason: 'n' },
    ]
    expect(t.report(held, false)).toEqual([
      { type: 'RRSIG', count: 4, reason: 'held' },
      { type: 'SPF', count: 1, reason: 'spf' },
    ])
  })

  it('keeps a report bounded: 100 types, reasons of 200 characters', () => {
    const t = new SkipTally()
    for (let i = 0; i < 1100; i++) t.note('add', `TYPE${1000 + i}`, 'x'.repeat(300))
    const report = t.report([], true)
    expect(report).toHaveLength(100)
    expect(report[0]!.reason).toHaveLength(200)
  })
})

describe("a copy's stored report", () => {
  const loc = { type: 'LOC', count: 3, reason: 'earlier' }
  const sig = { type: 'RRSIG', count: 1, reason: 'r' }

  it('reads a bare array as version 1 of the mapping, and refuses what is not a report', () => {
    expect(parseSkipped(JSON.stringify([loc, { type: 'X' }]))).toEqual({ mapping: 1, types: [loc] })
    const now = { mapping: RECORD_MAPPING, types: [sig] }
    expect(parseSkipped(storedReport(now))).toEqual(now)
    for (const bad of [
      '{',
      '3',
      'null',
      '{"types":[]}',
      '{"mapping":2}',
      '{"mapping":"2","types":[]}',
    ])
      expect(parseSkipped(bad)).toBeNull()
    expect(parseSkipped(null)).toBeNull()
  })

  it("is an AXFR's own, by this mapping; an IXFR keeps an earlier version while the copy lacks something", () => {
    const t = new SkipTally()
    t.note('add', 'RRSIG', 'r')
    expect(reportAfter(t, { mapping: 1, types: [loc] }, true)).toEqual({
      mapping: RECORD_MAPPING,
      types: [sig],
    })
    expect(reportAfter(t, { mapping: 1, types: [loc] }, false)).toEqual({
      mapping: 1,
      types: [loc, sig],
    })
    // A copy that lacked nothing is as good as one this mapping made.
    expect(reportAfter(t, { mapping: 1, types: [] }, false)).toEqual({
      mapping: RECORD_MAPPING,
      types: [sig],
    })
    expect(reportAfter(t, null, false)).toBeNull()
  })
})

describe('skipped_records of a secondary zone incoming settings', () => {
  it('says what the copy lacks after an AXFR and after an IXFR, and nothing before', async () => {
    const zone = await secondaryZone('skipped')
    const z = zone.name
    const incoming = async () => (await api('GET', zone.incoming)).body.result
    expect(await incoming()).not.toHaveProperty('skipped_records')

    const sig = (label: string) =>
      rr(z, label, 'RRSIG', 46, 'A 13 3 300 20300101000000 20200101000000 1 x. AAAA')
    const hinfo = rr(z, 'host', 'HINFO', 13, '"PC" "Linux"')
    const outside = rr('other.test', 'www', 'A', 1, '192.0.2.1')
    await transfer(
      zone,
      [a(z, 1), sig('r-1'), a(z, 2), sig('r-2'), hinfo, outside].map((r): Step => ['add', r]),
      10,
      true
    )
    expect((await incoming()).skipped_records).toEqual([
      {
        type: 'RRSIG',
        count: 2,
        reason: 'the records API does not hold RRSIG records',
      },
      { type: 'A', count: 1, reason: 'www.other.test is outside the zone' },
      { type: 'HINFO', count: 1, reason: 'the records API does not hold HINFO records' },
    ])

    await transfer(
      zone,
      [
        ['delete', a(z, 2)],
        ['delete', sig('r-2')],
        ['delete', hinfo],
      ],
      11,
      false
    )
    expect((await incoming()).skipped_records).toEqual([
      { type: 'A', count: 1, reason: 'www.other.test is outside the zone' },
      {
        type: 'RRSIG',
        count: 1,
        reason: 'the records API does not hold RRSIG records',
      },
    ])

    // An AXFR of only records we hold: the copy lacks nothing.
    await transfer(zone, [['add', a(z, 3)]], 12, true)
    expect((await incoming()).skipped_records).toEqual([])

    // A copy with no report (made before reports were kept): an IXFR cannot tell what it lacks.
    await env.DB.prepare('UPDATE zones SET secondary_skipped = NULL WHERE id = ?1')
      .bind(zone.id)
      .run()
    await transfer(zone, [['add', sig('r-3')]], 13, false)
    expect(await incoming()).not.toHaveProperty('skipped_records')
  })

  it('answers the 32 types the copy lacks most', async () => {
    const zone = await secondaryZone('skipped-many')
    const types = Array.from({ length: 40 }, (_, i) => i)
    const records = types.flatMap((i) =>
      Array.from({ length: i + 1 }, (_, j) =>
        rr(zone.name, `h${j}`, `TYPE${1000 + i}`, 1000 + i, '\\# 1 00')
      )
    )
    await transfer(
      zone,
      records.map((r): Step => ['add', r]),
      10,
      true
    )
    const answered = (await api('GET', zone.incoming)).body.result.skipped_records
    expect(answered).toHaveLength(32)
    expect(answered[0]).toMatchObject({ type: 'TYPE1039', count: 40 })
  })
})

describe('skipped_records through a secondary zone check', () => {
  it('an IXFR from the primary moves the report its AXFR made', async () => {
    const zone = await secondaryZone('skipped-check')
    const z = zone.name
    const { primary, cfg } = ixfrPrimaryOf(zone)
    const hinfo = (label: string): ResponseRR => ({
      name: `${label}.${z}`,
      type: 13,
      ttl: 300,
      rdata: '"PC" "Linux"',
    })
    const a1: ResponseRR = { name: `a.${z}`, type: 1, ttl: 300, rdata: '192.0.2.1' }
    const first = fakePrimary((kind, id) =>
      pack(
        z,
        id,
        kind,
        kind === 'SOA' ? [wSoa(z, 10)] : [wSoa(z, 10), a1, hinfo('h1'), wSoa(z, 10)]
      )
    )
    await (
      await transferFrom(env as Env, cfg, primary, 'check', first.connect)
    ).finishing
    const diff = [wSoa(z, 11), wSoa(z, 10), wSoa(z, 11), hinfo('h2'), wSoa(z, 11)]
    const next = fakePrimary((kind, id) => pack(z, id, kind, kind === 'SOA' ? [wSoa(z, 11)] : diff))
    const result = await transferFrom(
      env as Env,
      { ...cfg, soaSerial: 10 },
      primary,
      'check',
      next.connect
    )
    await result.finishing
    expect(result).toMatchObject({ status: 'transferred', kind: 'ixfr', serial: 11 })
    expect((await api('GET', zone.incoming)).body.result.skipped_records).toEqual([
      { type: 'HINFO', count: 2, reason: 'the records API does not hold HINFO records' },
    ])
  })
})
