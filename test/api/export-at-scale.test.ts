/**
 * Zone export by key on the records' identity index: the full file streams page by page, and
 * `per_page`/`cursor` read one page anywhere in a 1,000,000-record zone without an OFFSET.
 */
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  encodeExportCursor,
  EXPORT_PAGE,
} from '../../workers/api/src/zonefile-bridge/export-zone.ts'
import { createZone, expectError, type ApiResponse } from './helpers.ts'
import { seedRecords } from './seed-records.ts'

async function exportText(
  zoneId: string,
  query = ''
): Promise<{ status: number; text: string; next: string | null }> {
  const res = await (exports as any).default.fetch(
    `http://localhost/client/v4/zones/${zoneId}/dns_records/export${query}`,
    {
      headers: { authorization: 'Bearer dev-token' },
    }
  )
  return {
    status: res.status,
    text: await res.text(),
    next: res.headers.get('x-edgedns-next-cursor'),
  }
}

const recordLines = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('h'))
const owner = (i: number): string => `h${String(i).padStart(7, '0')}`

describe('exporting a large zone', () => {
  it('pages through the identity index, never a sort or an offset', async () => {
    const { results } = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT name FROM dns_records WHERE zone_id = ?1
         AND (name_rev, type, content, ifnull(priority, -1)) > (?2, ?3, ?4, ?5)
       ORDER BY name_rev, type, content, ifnull(priority, -1) LIMIT ?6`
    )
      .bind('z', '', '', '', -2, EXPORT_PAGE)
      .all<{ detail: string }>()
    const plan = results.map((r) => r.detail).join('\n')
    expect(plan).toContain('dns_records_identity')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  it('streams a zone of several pages whole and in order', { timeout: 60_000 }, async () => {
    const z = await createZone('pages')
    await seedRecords(z.id, z.name, 2 * EXPORT_PAGE + 5)
    const res = await exportText(z.id)
    expect(res.status).toBe(200)
    expect(res.text).toMatch(/\bSOA\b/)
    const lines = recordLines(res.text)
    expect(lines.length).toBe(2 * EXPORT_PAGE + 5)
    expect(lines.map((l) => l.slice(0, 8))).toEqual(
      Array.from({ length: 2 * EXPORT_PAGE + 5 }, (_, i) => owner(i))
    )
    expect(lines[7]).toMatch(/\sA\s+192\.0\.2\.7(\s|$)/)
  })

  it(
    'reads pages by cursor anywhere in a 1,000,000-record zone',
    { timeout: 120_000 },
    async () => {
      const z = await createZone('million')
      await seedRecords(z.id, z.name, 1_000_000)
      const first = await exportText(z.id, '?per_page=1000')
      expect(first.status).toBe(200)
      expect(first.text).toMatch(/\bSOA\b/)
      expect(recordLines(first.text).map((l) => l.slice(0, 8))).toEqual(
        Array.from({ length: 1000 }, (_, i) => owner(i))
      )
      expect(first.next).not.toBeNull()

      const second = await exportText(z.id, `?per_page=1000&cursor=${first.next}`)
      expect(second.text).not.toMatch(/\bSOA\b/)
      expect(recordLines(second.text)[0]!.slice(0, 8)).toBe(owner(1000))

      // A cursor at the 999,000th record: the page costs what the first one did.
      const rev = z.name.split('.').reverse().join('.')
      const deep = encodeExportCursor([
        `${rev}.${owner(998_999)}`,
        'A',
        `192.0.2.${998_999 % 250}`,
        -1,
      ])
      const last = await exportText(z.id, `?per_page=1000&cursor=${deep}`)
      const lines = recordLines(last.text)
      expect(lines.length).toBe(1000)
      expect(lines[0]!.slice(0, 8)).toBe(owner(999_000))
      expect(lines[999]!.slice(0, 8)).toBe(owner(999_999))
      expect(last.next).toBeNull()
    }
  )

  it('refuses a cursor it did not issue', async () => {
    const z = await createZone('cursor')
    const res = await (exports as any).default.fetch(
      `http://localhost/client/v4/zones/${z.id}/dns_records/export?cursor=bm9wZQ`,
      {
        headers: { authorization: 'Bearer dev-token' },
      }
    )
    expectError(
      { status: res.status, body: await res.json(), headers: res.headers } as ApiResponse,
      400,
      9000
    )
  })
})
