/**
 * @module Committing an IXFR: its deletions are found from the staged side through the records'
 * identity index (their cost follows the deletions, not the zone's size), and a difference that
 * does not apply exactly to the copy we hold is refused whole.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createZone } from '../../../../test/api/helpers.ts'
import { heldRecords as held } from '../../../../test/api/incoming-rows.ts'
import { DELETE_STAGED } from './staged-records.ts'
import { ROWS, a, rr, soa, transfer, zoneRow, type Step, type Zone } from './ixfr-test-transfers.ts'
import { TransferStage } from './transfer-commit.ts'
import { IxfrNotExact, TooManyIxfrSteps, TransferTooLarge } from './transfer-errors.ts'

describe('the deletions of an IXFR', () => {
  it('find each record through the identity index, never walking the zone', async () => {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${DELETE_STAGED}`)
      .bind('z', 'xfr-del:x', 0, 9)
      .all<{ detail: string }>()
    const details = results.map((r) => r.detail)
    const all = details.join(' | ')
    expect(all).toMatch(
      /SEARCH r USING (COVERING )?INDEX dns_records_identity \(zone_id=\? AND name_rev=\? AND type=\? AND content=\? AND <expr>=\?\)/
    )
    expect(all).toMatch(/SEARCH s USING INDEX \w+ \(import_id=\? AND ord>\? AND ord<\?\)/)
    expect(
      details.filter((d) => /^SCAN (dns_records|r|s|import_staging)\b/.test(d)),
      all
    ).toEqual([])
  })

  it('remove exactly the records named, priorities included, across several statements', async () => {
    const zone = await createZone('ixfr-exact', 'secondary')
    const mx = (p: number) => rr(zone.name, '@', 'MX', 15, `${p} mx.${zone.name}.`)
    const base: Step[] = [
      ...Array.from({ length: 400 }, (_, i): Step => ['add', a(zone.name, i)]),
      ['add', mx(10)],
      ['add', mx(20)],
    ]
    await transfer(zone, base, 10, true)
    const steps: Step[] = [
      ...Array.from({ length: 150 }, (_, i): Step => ['delete', a(zone.name, 2 * i)]),
      ['delete', mx(10)],
      ['add', mx(30)],
      ['add', a(zone.name, 1000)],
    ]
    await transfer(zone, steps, 11, false)
    const names = await held(zone.id)
    expect(names).toHaveLength(402 - 151 + 2)
    expect(names.filter((n) => n.includes(' MX '))).toEqual([
      `${zone.name} 300 MX 20 mx.${zone.name}`,
      `${zone.name} 300 MX 30 mx.${zone.name}`,
    ])
    expect(names.some((n) => n.startsWith(`r-2.${zone.name} `))).toBe(false)
    expect(names.some((n) => n.startsWith(`r-3.${zone.name} `))).toBe(true)
    expect((await zoneRow(zone.id)).serial).toBe(11)
  })
})

describe('an IXFR that does not apply to the copy we hold', () => {
  async function base(label: string): Promise<{ zone: Zone; before: string[] }> {
    const zone = await createZone(label, 'secondary')
    const records = Array.from({ length: 120 }, (_, i): Step => ['add', a(zone.name, i)])
    await transfer(zone, records, 20, true)
    return { zone, before: await held(zone.id) }
  }

  async function refused(zone: Zone, before: string[], steps: Step[]) {
    await expect(transfer(zone, steps, 21, false)).rejects.toBeInstanceOf(IxfrNotExact)
    expect(await held(zone.id)).toEqual(before)
    expect((await zoneRow(zone.id)).serial).toBe(20)
  }

  it('is refused whole when it deletes a record the zone does not hold', async () => {
    const { zone, before } = await base('ixfr-missing')
    const steps: Step[] = [
      ...Array.from({ length: 60 }, (_, i): Step => ['delete', a(zone.name, i)]),
      ['delete', rr(zone.name, 'www', 'A', 1, '192.0.2.99')],
      ['add', rr(zone.name, 'www', 'A', 1, '192.0.2.2')],
    ]
    await refused(zone, before, steps)
  })

  it('is refused whole when it adds a record the zone already holds', async () => {
    const { zone, before } = await base('ixfr-present')
    await refused(zone, before, [
      ['delete', a(zone.name, 1)],
      ...Array.from({ length: 60 }, (_, i): Step => ['add', a(zone.name, 500 + i)]),
      ['add', a(zone.name, 7)],
    ])
  })

  it('is refused whole when it deletes the same record twice', async () => {
    const { zone, before } = await base('ixfr-twice')
    await refused(zone, before, [
      ['delete', a(zone.name, 3)],
      ['delete', a(zone.name, 3)],
    ])
  })

  it('applies a record deleted and added again (a TTL change), and skips what it skips on both sides', async () => {
    const { zone } = await base('ixfr-ttl')
    const sig = rr(
      zone.name,
      'r-1',
      'RRSIG',
      46,
      'A 13 3 300 20300101000000 20200101000000 1 x. AAAA'
    )
    await transfer(
      zone,
      [
        ['delete', a(zone.name, 5)],
        ['delete', sig],
        ['add', { ...a(zone.name, 5), ttl: 900 }],
        ['add', sig],
      ],
      21,
      false
    )
    const names = await held(zone.id)
    expect(names).toHaveLength(120)
    expect(names).toContain(`r-5.${zone.name} 900 A - 10.0.0.5`)
    expect((await zoneRow(zone.id)).serial).toBe(21)
  })
})

describe('an IXFR of several steps (difference sequences)', () => {
  it('applies them in order: a record one step adds, a later one may delete, and back', async () => {
    const zone = await createZone('ixfr-steps', 'secondary')
    await transfer(
      zone,
      [
        ['add', a(zone.name, 1)],
        ['add', a(zone.name, 2)],
      ],
      20,
      true
    )
    // 20 → 21: add r-3; 21 → 22: delete r-3 and r-1, add r-1 back with another TTL; 22 → 23: add r-3.
    const steps: Step[] = [
      ['add', a(zone.name, 3)],
      ['delete', a(zone.name, 3)],
      ['delete', a(zone.name, 1)],
      ['add', { ...a(zone.name, 1), ttl: 900 }],
      ['delete', a(zone.name, 2)],
      ['add', a(zone.name, 3)],
    ]
    await transfer(zone, steps, 23, false)
    expect(await held(zone.id)).toEqual([
      `r-1.${zone.name} 900 A - 10.0.0.1`,
      `r-3.${zone.name} 300 A - 10.0.0.3`,
    ])
  })

  it('is still refused whole when a later step does not apply', async () => {
    const zone = await createZone('ixfr-steps-bad', 'secondary')
    await transfer(zone, [['add', a(zone.name, 1)]], 30, true)
    const steps: Step[] = [
      ['add', a(zone.name, 2)],
      ['delete', a(zone.name, 9)],
    ]
    await expect(transfer(zone, steps, 32, false)).rejects.toBeInstanceOf(IxfrNotExact)
    expect(await held(zone.id)).toEqual([`r-1.${zone.name} 300 A - 10.0.0.1`])
  })

  it('stops at the 101st run of deletions and additions (the AXFR is asked instead)', async () => {
    const zone = await createZone('ixfr-steps-many', 'secondary')
    const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, ROWS)
    try {
      for (let i = 0; i < 100; i++) {
        await stage.sink('delete', a(zone.name, i))
        await stage.sink('add', a(zone.name, i + 1))
      }
      await expect(stage.sink('delete', a(zone.name, 100))).rejects.toBeInstanceOf(TooManyIxfrSteps)
    } finally {
      await stage.discard()
    }
  })
})

describe('the record cap of a transfer', () => {
  it('refuses the record after the cap, staged or skipped', async () => {
    const zone = await createZone('xfr-cap', 'secondary')
    const stage = new TransferStage(env.DB, { zoneId: zone.id, zoneName: zone.name }, ROWS, 100)
    try {
      for (let i = 0; i < 99; i++) await stage.sink('add', a(zone.name, i))
      await stage.sink('add', soa(zone.name, 1))
      await expect(stage.sink('add', a(zone.name, 100))).rejects.toBeInstanceOf(TransferTooLarge)
    } finally {
      await stage.discard()
    }
    const staged = await env.DB.prepare(
      'SELECT count(*) AS n FROM import_staging WHERE zone_id = ?1'
    )
      .bind(zone.id)
      .first<{ n: number }>()
    expect(staged?.n).toBe(0)
  })
})
