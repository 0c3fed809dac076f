/**
 * @module An IXFR's reads follow the change, not the zone: the serial by the (zone, serial) index,
 * the change log by its key range and the live records by id, never by walking the zone's records
 * or all of its serials.
 */
import { env } from 'cloudflare:workers'
import { getTableConfig } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'
import { zoneSerials } from '../db/schema-transfers.ts'
import { CHANGED_ROWS_SQL, CHANGES_SQL } from './change-steps.ts'

async function plan(sql: string): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind('z', 7, 9, 10_000)
    .all<{ detail: string }>()
  return results.map((r) => r.detail)
}

const SERIAL_BY_INDEX =
  'SEARCH zone_serials USING INDEX zone_serials_serial (zone_id=? AND serial=?)'
const LOG_BY_KEY =
  'SEARCH change_log USING INDEX sqlite_autoindex_change_log_1 (zone_id=? AND seq>? AND seq<?)'

/** Plan lines that walk a table, or search a zone's rows by the zone alone. */
const walks = (details: string[]): string[] =>
  details.filter((d) => /^SCAN (dns_records|r|change_log|zone_serials)\b|\(zone_id=\?\)$/.test(d))

describe('IXFR query plans', () => {
  it('finds the serial through the (zone, serial) index and the entries by their key', async () => {
    const details = await plan(CHANGES_SQL)
    expect(details, details.join(' | ')).toContain(SERIAL_BY_INDEX)
    expect(details, details.join(' | ')).toContain(LOG_BY_KEY)
    expect(walks(details), details.join(' | ')).toEqual([])
  })

  it('names an index of the schema for the serial', () => {
    const named = /INDEXED BY (\w+)/.exec(CHANGES_SQL)?.[1]
    expect(getTableConfig(zoneSerials).indexes.map((i) => i.config.name)).toContain(named)
  })

  it('reads the changed records by id and their sets by identity, not by walking the zone', async () => {
    const details = await plan(CHANGED_ROWS_SQL)
    expect(details, details.join(' | ')).toContain(
      'SEARCH dns_records USING INDEX sqlite_autoindex_dns_records_1 (id=?)'
    )
    expect(details, details.join(' | ')).toContain(
      'SEARCH r USING INDEX dns_records_identity (zone_id=? AND name_rev=? AND type=?)'
    )
    expect(details, details.join(' | ')).toContain(SERIAL_BY_INDEX)
    expect(details, details.join(' | ')).toContain(LOG_BY_KEY)
    expect(walks(details), details.join(' | ')).toEqual([])
  })
})
