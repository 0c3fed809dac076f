/**
 * @module The batch write path's bulk statements find rows by id (the primary key), never by
 * walking the zone: their cost follows the batch, not the zone size.
 */
import { env } from 'cloudflare:workers'
import { SELECT_BY_ID } from './load.ts'
import { describe, expect, it } from 'vitest'
import { UPDATE_IDENTITY, UPDATE_RECORDS, UPDATE_UNINDEXED, updateSql } from './write.ts'
import { INSERT_RECORD_CHANGES } from '../commit/zone-change.ts'

describe('batch write query plans', () => {
  for (const [name, sql] of Object.entries({
    UPDATE_RECORDS,
    UPDATE_IDENTITY,
    UPDATE_UNINDEXED,
    'an update of content alone': updateSql(['content']),
  })) {
    it(`${name} looks rows up by id`, async () => {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind('z', 't', '[]')
        .all<{ detail: string }>()
      const details = results.map((r) => r.detail)
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
  }

  it('SELECT_BY_ID (the records a batch deletes) looks rows up by id', async () => {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${SELECT_BY_ID}`)
      .bind('z', '[]')
      .all<{ detail: string }>()
    const details = results.map((r) => r.detail)
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

  it('INSERT_RECORD_CHANGES reads each before-image by id', async () => {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${INSERT_RECORD_CHANGES}`)
      .bind('z', 't', 'n', '[]')
      .all<{ detail: string }>()
    const details = results.map((r) => r.detail)
    expect(
      details.some((d) =>
        /^SEARCH r USING INDEX sqlite_autoindex_dns_records_1 \(id=\?\) LEFT-JOIN$/.test(d)
      ),
      details.join(' | ')
    ).toBe(true)
    expect(
      details.filter((d) => /^SCAN (r|dns_records)\b|\(zone_id=\?\)$/.test(d)),
      details.join(' | ')
    ).toEqual([])
  })
})
