/**
 * Review: a mirror page read joined after a short page, whose joined string passes D1's longest
 * string (2,000,000 bytes), is a production-limit breach under the strict bindings (recorded even
 * though readPage catches it and reads the page as rows).
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { builder, converge, createZone, settle } from './helpers.ts'

describe('full build of pages that turn long', () => {
  it('reads every page within D1 limits and converges', async () => {
    const z = await createZone('joined-limit')
    await settle(z.id)
    // Five 218-character strings, as a 4096-bit DKIM key or a long SPF/verification record.
    const txt = Array(5)
      .fill(`"${'k'.repeat(218)}"`)
      .join(' ')
    await env.DB.prepare(
      `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, ttl, created_on, modified_on)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 4000)
       SELECT substr(?1, 1, 16) || printf('%016x', i), ?1,
         printf('%s-%04d.', iif(i < 2000, 'a', 'b'), i) || ?2,
         ?3 || printf('.%s-%04d', iif(i < 2000, 'a', 'b'), i),
         iif(i < 2000, 'A', 'TXT'), iif(i < 2000, '192.0.2.1', ?4), 300, ?5, ?5 FROM n`
    )
      .bind(z.id, z.name, z.name.split('.').reverse().join('.'), txt, new Date().toISOString())
      .run()
    await builder(z.id).rebuild(z.id)
    await settle(z.id)
    expect((await converge(z.id)).differences).toEqual([])
  }, 120_000)
})
