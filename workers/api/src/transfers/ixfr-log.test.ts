/**
 * @module What a committed transfer tells the builder: an IXFR logs each record it deletes and
 * adds (as a records batch does) and then the SOA it replaced, so the builder rebuilds only the names
 * it touched; an AXFR logs one full build. A refused IXFR logs nothing.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'
import { builder, kvMeta, kvNode, settle } from '../builder/test/helpers.ts'
import {
  a,
  guardOf,
  rr,
  soa,
  transfer,
  zoneRow,
  type Step,
  type Zone,
} from './ixfr-test-transfers.ts'
import { LOG_STAGED_DELETES } from './staged-records.ts'
import { TransferStage } from './transfer-commit.ts'
import { IxfrNotExact } from './transfer-errors.ts'

interface LogRow {
  seq: number
  op: string
  record_id: string | null
  old_name: string | null
  new_name: string | null
  type: string | null
  before: string | null
}

async function logAfter(zoneId: string, seq: number): Promise<LogRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT seq, op, record_id, old_name, new_name, type, before FROM change_log
     WHERE zone_id = ?1 AND seq > ?2 ORDER BY seq`
  )
    .bind(zoneId, seq)
    .all<LogRow>()
  return results
}

async function recordIds(zoneId: string, name: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    'SELECT id FROM dns_records WHERE zone_id = ?1 AND name = ?2'
  )
    .bind(zoneId, name)
    .all<{ id: string }>()
  return results.map((r) => r.id)
}

/** A secondary zone holding r-0 … r-(n-1), from an AXFR at serial 10. */
async function secondaryOf(label: string, n: number): Promise<Zone> {
  const zone = await createZone(label, 'secondary')
  await transfer(
    zone,
    Array.from({ length: n }, (_, i): Step => ['add', a(zone.name, i)]),
    10,
    true
  )
  return zone
}

describe('the change log of a committed transfer', () => {
  it('an IXFR logs every record it deletes and adds, in the order applied, then the SOA it replaced', async () => {
    const zone = await secondaryOf('ixfr-log', 300)
    const before = (await guardOf(zone.id)).changeSeq
    const oldIds = await recordIds(zone.id, `r-7.${zone.name}`)
    // Two runs, each over several statements (50 records each): deletions, additions, again.
    const steps: Step[] = [
      ...Array.from({ length: 120 }, (_, i): Step => ['delete', a(zone.name, i)]),
      ...Array.from({ length: 70 }, (_, i): Step => ['add', a(zone.name, 1000 + i)]),
      ...Array.from({ length: 60 }, (_, i): Step => ['delete', a(zone.name, 200 + i)]),
      ['add', a(zone.name, 7)],
    ]
    const committed = await transfer(zone, steps, 11, false)

    const log = await logAfter(zone.id, before)
    expect(committed).toBe(before + steps.length + 1)
    expect((await zoneRow(zone.id)).change_seq).toBe(committed)
    expect(log.map((r) => r.seq)).toEqual(log.map((_, i) => before + 1 + i))
    expect(log.map((r) => r.op)).toEqual([
      ...Array<string>(120).fill('delete'),
      ...Array<string>(70).fill('create'),
      ...Array<string>(60).fill('delete'),
      'create',
      'soa',
    ])
    // Last, the SOA the transfer replaced (serial 10 from the AXFR): an IXFR out starts there.
    expect(JSON.parse(log.at(-1)!.before!)).toEqual([
      'ns.primary.test',
      'hostmaster.primary.test',
      10,
      3600,
      600,
      86400,
      300,
      3600,
    ])
    // A deletion: the record's name, type and before-image, as a records batch logs it.
    const deleted = log[7]!
    expect(deleted).toMatchObject({ record_id: oldIds[0], old_name: `r-7.${zone.name}` })
    expect(deleted).toMatchObject({ new_name: null, type: 'A' })
    expect(JSON.parse(deleted.before!)).toContain(`r-7.${zone.name}`)
    // An addition: the new record's id, name and type, no before-image.
    const added = log[250]!
    expect(added).toMatchObject({ old_name: null, new_name: `r-7.${zone.name}`, before: null })
    expect(await recordIds(zone.id, `r-7.${zone.name}`)).toEqual([added.record_id])
    expect(log[120]!.new_name).toBe(`r-1000.${zone.name}`)
  })

  it('an IXFR that only moves the SOA (its records all skipped) logs the SOA alone', async () => {
    const zone = await secondaryOf('ixfr-log-soa', 20)
    const before = (await guardOf(zone.id)).changeSeq
    const sig = rr(
      zone.name,
      'r-1',
      'RRSIG',
      46,
      'A 13 3 300 20300101000000 20200101000000 1 x. AAAA'
    )
    const committed = await transfer(
      zone,
      [
        ['delete', sig],
        ['add', sig],
      ],
      11,
      false
    )
    expect(committed).toBe(before + 1)
    expect((await logAfter(zone.id, before)).map((r) => r.op)).toEqual(['soa'])
    expect((await zoneRow(zone.id)).serial).toBe(11)
  })

  it('finds the before-image of each deletion through the identity index', async () => {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${LOG_STAGED_DELETES}`)
      .bind('z', 'xfr-del:x', 0, 9, 0, 'now')
      .all<{ detail: string }>()
    const all = results.map((r) => r.detail).join(' | ')
    expect(all).toMatch(/SEARCH r USING (COVERING )?INDEX dns_records_identity/)
    expect(all).not.toMatch(/SCAN (dns_records|r)\b/)
  })

  it('an AXFR into an empty zone logs one full build', async () => {
    const zone = await createZone('axfr-log', 'secondary')
    const before = (await guardOf(zone.id)).changeSeq
    const committed = await transfer(zone, [['add', a(zone.name, 1)]], 11, true)
    expect(committed).toBe(before + 1)
    expect((await logAfter(zone.id, before)).map((r) => r.op)).toEqual(['replace'])
  })

  it('an IXFR of more records than are logged one by one logs one full build', async () => {
    const zone = await secondaryOf('ixfr-log-large', 20)
    const before = (await guardOf(zone.id)).changeSeq
    const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, 50, 100, 10)
    try {
      for (let i = 0; i < 6; i++) await stage.sink('delete', a(zone.name, i))
      for (let i = 0; i < 5; i++) await stage.sink('add', a(zone.name, 100 + i))
      const guard = await guardOf(zone.id)
      const committed = await stage.commit({ guard, soa: soa(zone.name, 11), replace: false })
      expect(committed).toBe(before + 1)
    } finally {
      await stage.discard()
    }
    expect((await logAfter(zone.id, before)).map((r) => r.op)).toEqual(['replace'])
  })

  it('an IXFR that does not apply logs nothing', async () => {
    const zone = await secondaryOf('ixfr-log-refused', 20)
    const before = (await guardOf(zone.id)).changeSeq
    const steps: Step[] = [
      ['delete', a(zone.name, 1)],
      ['delete', a(zone.name, 99)],
    ]
    await expect(transfer(zone, steps, 11, false)).rejects.toBeInstanceOf(IxfrNotExact)
    expect(await logAfter(zone.id, before)).toEqual([])
    expect((await zoneRow(zone.id)).change_seq).toBe(before)
  })
})

describe('the build after an IXFR', () => {
  it('rebuilds only the names the IXFR touched, with the primary serial', async () => {
    const zone = await secondaryOf('ixfr-build', 400)
    await settle(zone.id)
    const committed = await transfer(
      zone,
      [
        ['delete', a(zone.name, 3)],
        ['add', a(zone.name, 4000)],
      ],
      11,
      false
    )
    await builder(zone.id).notify(zone.id, committed)
    const status = await settle(zone.id)
    expect(status.cursor).toBe(committed)
    expect(status.lastPass).toMatchObject({ kind: 'per-record', changes: 3 })
    expect((await kvMeta(zone.name))?.serial).toBe(11)
    expect(await kvNode(zone.name, `r-3.${zone.name}`)).toBeNull()
    expect(await kvNode(zone.name, `r-4000.${zone.name}`)).toMatchObject({
      sets: { A: { rdata: ['10.0.15.160'] } },
    })
  })
})
