/**
 * A 50,000-record zone file (the default import cap) imports all or nothing through the staged
 * import, under the strict D1 binding, leaves no staged rows, exports back,
 * and a 50,001st record over the cap is refused with 81063 before anything is written.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createZone, expectError } from './helpers.ts'
import { exportZone, importZone } from './import-export-helpers.ts'

function zoneText(n: number): string {
  const lines = ['$TTL 300']
  for (let i = 0; i < n; i++)
    lines.push(
      `h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255} ; host ${i} cf_tags=batch:scale`
    )
  return lines.join('\n') + '\n'
}

describe('import at scale', () => {
  it('imports 50,000 records in one call and exports them', async () => {
    const z = await createZone('scale-import')
    const t0 = Date.now()
    const res = await importZone(z.id, zoneText(50_000), { as: 'file' })
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200)
    expect(res.body.result).toMatchObject({ recs_added: 50_000, total_records_parsed: 50_000 })
    const n = await env.DB.prepare('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1')
      .bind(z.id)
      .first<number>('n')
    expect(n).toBe(50_000)
    expect(
      await env.DB.prepare('SELECT count(*) AS n FROM import_staging WHERE zone_id = ?1')
        .bind(z.id)
        .first<number>('n')
    ).toBe(0)
    const imported = Date.now() - t0
    const { text } = await exportZone(z.id)
    const records = text.split('\n').filter((l) => /\tA\t/.test(l))
    expect(records).toHaveLength(50_000)
    expect(records[0]).toMatch(/ ; host \d+ cf_tags=batch:scale,cf-proxied:false$/)
    console.log(
      `50k import ${imported} ms, export ${Date.now() - t0 - imported} ms, ${(text.length / 1e6).toFixed(1)} MB`
    )
  }, 300_000)

  it('refuses a file over the 50,000-record cap and writes nothing', async () => {
    const z = await createZone('scale-over')
    const res = await importZone(z.id, '$TTL 300\n$GENERATE 0-50000 h$ A 10.0.0.1\n')
    expectError(res, 400, 81063)
    const n = await env.DB.prepare('SELECT count(*) AS n FROM dns_records WHERE zone_id = ?1')
      .bind(z.id)
      .first<number>('n')
    expect(n).toBe(0)
  }, 120_000)
})
