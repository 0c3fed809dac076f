/**
 * A zone export streams page by page on the records' identity index: a 1,000,000-record zone exports
 * whole, in order, without the worker holding the zone in memory.
 */
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { EXPORT_PAGE } from '../../workers/api/src/zonefile-bridge/export-zone.ts'
import { createZone } from './helpers.ts'
import { seedRecords } from './seed-records.ts'

describe('exporting a large zone', () => {
  it('pages through the identity index, never a sort or an offset', async () => {
    const { results } = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT * FROM dns_records WHERE zone_id = ?1
         AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
       ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`
    )
      .bind('z', '', '', '', -2, EXPORT_PAGE)
      .all<{ detail: string }>()
    const plan = results.map((r) => r.detail).join('\n')
    expect(plan).toContain('dns_records_identity')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  it('streams a 1,000,000-record zone in full', { timeout: 240_000 }, async () => {
    const z = await createZone('million')
    await seedRecords(z.id, z.name, 1_000_000)
    const res = await (exports as any).default.fetch(`http://api.test/client/v4/zones/${z.id}/dns_records/export`, {
      headers: { authorization: 'Bearer dev-token' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBeNull()
    const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader()
    let lines = 0
    let chunks = 0
    let carry = ''
    let first = ''
    let last = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks++
      const parts = (carry + value).split('\n')
      carry = parts.pop()!
      for (const line of parts) {
        if (!line.startsWith(`h`)) continue
        lines++
        if (first === '') first = line
        last = line
      }
    }
    expect(lines).toBe(1_000_000)
    expect(chunks).toBeGreaterThan(1_000_000 / EXPORT_PAGE - 1)
    expect(first).toMatch(new RegExp(`^h0000000\\.${z.name.replace(/\./g, '\\.')}\\.\\s+300\\s+IN\\s+A\\s+192\\.0\\.2\\.0`))
    expect(last).toMatch(/^h0999999\./)
  })
})
