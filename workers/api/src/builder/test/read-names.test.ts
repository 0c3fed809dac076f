/**
 * The builder's name reads stay within D1's limits for the largest pass: 20,000 names of about
 * 200 characters are several MB of JSON, more than one bound string may hold (2 MB).
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { readNames } from '../queries.ts'
import { strictD1 } from '@edgedns/strict-bindings'
import { createZone } from '../../../../../test/api/helpers.ts'

const LONG = ['a'.repeat(60), 'b'.repeat(60), 'c'.repeat(40)]

describe('readNames', () => {
  it(
    'reads a 20,000-name pass of 200-character names under strict limits',
    { timeout: 30_000 },
    async () => {
      const z = await createZone('long-names')
      const rev = z.name.split('.').reverse().join('.')
      const prefix = LONG.join('.')
      const revSuffix = [...LONG].reverse().join('.')
      // 20,000 owner names `<a…>.<b…>.<c…>.h<i>.<zone>`, and one name below every tenth `h<i>.<zone>`.
      await env.DB.prepare(
        `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, ttl, created_on, modified_on)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 20000)
       SELECT substr(?1, 1, 16) || printf('%016x', i), ?1, ?2 || printf('.h%07d.', i) || ?3, ?4 || printf('.h%07d.', i) || ?5,
              'A', '192.0.2.1', 300, 'now', 'now' FROM n`
      )
        .bind(z.id, prefix, z.name, rev, revSuffix)
        .run()
      const names = Array.from(
        { length: 20_000 },
        (_, i) => `${prefix}.h${String(i).padStart(7, '0')}.${z.name}`
      )
      expect(names[0]!.length).toBeGreaterThanOrEqual(200)
      expect(JSON.stringify(names).length).toBeGreaterThan(4_000_000)
      const parents = Array.from(
        { length: 2_000 },
        (_, i) => `${LONG[1]}.${LONG[2]}.h${String(i * 10).padStart(7, '0')}.${z.name}`
      )

      const state = await readNames(strictD1(env.DB), z.id, [...names, ...parents])
      expect(state.rows.size).toBe(20_000)
      expect(state.rows.get(names[19_999]!)?.[0]?.content).toBe('192.0.2.1')
      expect(state.hasDescendants.size).toBe(2_000)
      expect(state.hasDescendants.has(parents[1_999]!)).toBe(true)
    }
  )
})
