/**
 * @module An IXFR's reads follow the change, not the zone: the serial by the (zone, serial) index
 * and the live records by id, never by walking the zone's records or all of its serials.
 */
import { env } from 'cloudflare:workers'
import { getTableConfig } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'
import { zoneSerials } from '../db/schema-transfers.ts'
import { LIVE_ROWS_SQL, SERIAL_SEQ_SQL } from './change-steps.ts'

async function plan(sql: string, ...params: unknown[]): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>()
  return results.map((r) => r.detail)
}

describe('IXFR query plans', () => {
  it('finds the serial through the (zone, serial) index', async () => {
    const details = await plan(SERIAL_SEQ_SQL, 'z', 7)
    expect(details, details.join(' | ')).toEqual([
      'SEARCH zone_serials USING INDEX zone_serials_serial (zone_id=? AND serial=?)',
    ])
  })

  it('names an index of the schema for the serial', () => {
    const named = /INDEXED BY (\w+)/.exec(SERIAL_SEQ_SQL)?.[1]
    expect(getTableConfig(zoneSerials).indexes.map((i) => i.config.name)).toContain(named)
  })

  it('reads the changed records by id, not by walking the zone', async () => {
    const details = await plan(LIVE_ROWS_SQL, 'z', '[]')
    expect(
      details.some((d) =>
        /^SEARCH dns_records USING INDEX sqlite_autoindex_dns_records_1 \(id=\?\)$/.test(d)
      ),
      details.join(' | ')
    ).toBe(true)
    expect(
      details.filter((d) => /^SCAN dns_records\b|\(zone_id=\?\)$/.test(d)),
      details.join(' | ')
    ).toEqual([])
  })
})
