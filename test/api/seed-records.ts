/**
 * Seeds a zone with many records in one SQL statement (a recursive CTE), for tests of big zones that
 * must stay fast: a million rows take seconds, against minutes through the API.
 */
import { env } from 'cloudflare:workers'

/**
 * Inserts `count` A records `h<i, 7 digits>.<zone>` (content 192.0.2.<i mod 250>, ttl 300) straight into D1,
 * ids derived from the zone id and i (ids and names in index order insert fast), without change-log rows: the builder never sees them, so use it for D1-side behaviour only.
 */
export async function seedRecords(
  zoneId: string,
  zoneName: string,
  count: number,
  from = 0
): Promise<void> {
  const rev = zoneName.split('.').reverse().join('.')
  const now = new Date().toISOString()
  await env.DB.prepare(
    `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, ttl, created_on, modified_on)
     WITH RECURSIVE n(i) AS (SELECT CAST(?2 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2 + ?3)
     SELECT substr(?1, 1, 16) || printf('%016x', i), ?1, printf('h%07d', i) || '.' || ?4, ?5 || printf('.h%07d', i), 'A', '192.0.2.' || (i % 250), 300, ?6, ?6 FROM n`
  )
    .bind(zoneId, from, count, zoneName, rev, now)
    .run()
}
