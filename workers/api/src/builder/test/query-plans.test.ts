/**
 * @module The build pipeline's D1 statements use indexes (a per-record build costs in proportion
 * to the names it touches, not to the zone's size). A full scan of dns_records or change_log fails.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { SQL } from '../queries.ts'

const binds: Record<keyof typeof SQL, unknown[]> = {
  zone: ['z'],
  log: ['z', 0, 10],
  lastSeq: ['z'],
  rowsOf: ['z', '["example.www"]'],
  below: ['z', '[["www.example","example.www"]]'],
  withRecords: ['z', '["example.www"]'],
  page: ['z', 'example', 10],
  joinedPage: ['z', 'example', 10],
  subzones: ['elpmaxe.', 'elpmaxe/'],
  liveZone: ['example'],
}

describe('builder query plans', () => {
  for (const [name, sql] of Object.entries(SQL) as [keyof typeof SQL, string][]) {
    it(`${name} uses an index`, async () => {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...binds[name])
        .all<{ detail: string }>()
      const details = results.map((r) => r.detail)
      expect(details.length).toBeGreaterThan(0)
      const fullScan = (d: string) => /^SCAN (dns_records|r|change_log|zones)\b/.test(d)
      // An index search on zone_id alone reads the whole zone.
      const zoneWide = (d: string) =>
        /^SEARCH (dns_records|r) USING (COVERING )?INDEX \w+ \(zone_id=\?\)$/.test(d)
      expect(
        details.filter((d) => fullScan(d) || zoneWide(d)),
        details.join(' | ')
      ).toEqual([])
    })
  }
})
