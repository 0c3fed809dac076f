import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { countingD1 } from '../../../../test/api/counting-d1.ts'
import { createZone } from '../../../../test/api/helpers.ts'
import { TransferStamps } from './transfer-stamps.ts'

async function outgoingRow(): Promise<string> {
  const zone = await createZone('stamp')
  await env.DB.prepare(
    `INSERT INTO zone_transfers_outgoing (zone_id, name, peers, enabled, created_on, modified_on)
     VALUES (?1, ?2, '[]', 1, ?3, ?3)`
  )
    .bind(zone.id, zone.name, new Date().toISOString())
    .run()
  return zone.id
}

const stampOf = async (zoneId: string) =>
  (
    await env.DB.prepare(
      'SELECT last_transferred_on FROM zone_transfers_outgoing WHERE zone_id = ?1'
    )
      .bind(zoneId)
      .first<{ last_transferred_on: string | null }>()
  )?.last_transferred_on

describe('TransferStamps', () => {
  it('writes the transfers completed within its delay in one round trip, each with its own time', async () => {
    const [a, b] = [await outgoingRow(), await outgoingRow()]
    const counting = countingD1(env.DB)
    const stamps = new TransferStamps(10)
    const work: Promise<unknown>[] = []
    stamps.record(counting.db, a, '2026-01-01T00:00:01.000Z', (w) => work.push(w))
    stamps.record(counting.db, b, '2026-01-01T00:00:02.000Z', (w) => work.push(w))
    expect(work).toHaveLength(1)
    expect(await stampOf(a)).toBeNull()
    await Promise.all(work)
    expect(counting.trips).toBe(1)
    expect(await stampOf(a)).toBe('2026-01-01T00:00:01.000Z')
    expect(await stampOf(b)).toBe('2026-01-01T00:00:02.000Z')
  })

  it('starts a new batch after a write', async () => {
    const a = await outgoingRow()
    const stamps = new TransferStamps(0)
    const work: Promise<unknown>[] = []
    stamps.record(env.DB, a, '2026-01-01T00:00:01.000Z', (w) => work.push(w))
    await Promise.all(work)
    stamps.record(env.DB, a, '2026-01-01T00:00:03.000Z', (w) => work.push(w))
    expect(work).toHaveLength(2)
    await Promise.all(work)
    expect(await stampOf(a)).toBe('2026-01-01T00:00:03.000Z')
  })
})
