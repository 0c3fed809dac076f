/**
 * A full build's mirror page reads the same names and rows joined (one string) as rows, whatever
 * the records hold: NULL data and priority, proxied flags, and a field with the joined read's
 * separator in it, which makes the joined read unusable and the page is read as rows.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { strictD1 } from '@edgedns/strict-bindings'
import { reverseName } from '../../records/model.ts'
import { readPage } from '../queries.ts'
import { createZone } from '../../../../../test/api/helpers.ts'

type Seed = [
  label: string,
  type: string,
  content: string,
  data: string | null,
  priority: number | null,
  proxied: number,
]

async function seed(zone: { id: string; name: string }, rows: Seed[]): Promise<void> {
  await env.DB.batch(
    rows.map(([label, type, content, data, priority, proxied], i) => {
      const name = `${label}.${zone.name}`
      return env.DB.prepare(
        `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, data, priority, ttl, proxied, created_on, modified_on)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'now', 'now')`
      ).bind(
        `${zone.id.slice(0, 24)}${String(i).padStart(8, '0')}`,
        zone.id,
        name,
        reverseName(name),
        type,
        content,
        data,
        priority,
        300 + i,
        proxied
      )
    })
  )
}

const ROWS: Seed[] = [
  ['a', 'A', '192.0.2.1', null, null, 1],
  ['a', 'A', '192.0.2.2', null, null, 0],
  ['deep.b', 'MX', 'mail.example.net', null, 10, 0],
  [
    'c',
    'SRV',
    '1 5060 sip.example.net',
    '{"weight":1,"port":5060,"target":"sip.example.net"}',
    5,
    0,
  ],
  ['d', 'TXT', '"v=spf1 -all"', null, null, 0],
]

describe('readPage', () => {
  it('reads a page joined as it reads it as rows', async () => {
    const zone = await createZone('read-page')
    await seed(zone, ROWS)
    const db = strictD1(env.DB)
    const apexRev = reverseName(zone.name)
    const rows = await readPage(db, zone.id, apexRev, '', 100, false)
    const joined = await readPage(db, zone.id, apexRev, '', 100, true)
    expect(rows.names.map((n) => n.name)).toEqual(
      ['a', 'deep.b', 'c', 'd'].map((l) => `${l}.${zone.name}`)
    )
    expect(rows.names[0]!.rows).toHaveLength(2)
    expect(joined.joinedFailed).toBe(false)
    expect(joined.names).toEqual(rows.names)
    expect(joined.last).toBe(true)
    // A page after a name, and a short last page.
    const after = await readPage(db, zone.id, apexRev, reverseName(`a.${zone.name}`), 2, true)
    expect(after.names.map((n) => n.name)).toEqual([`deep.b.${zone.name}`, `c.${zone.name}`])
    expect(after.last).toBe(false)
    expect(after.joinedFailed).toBe(false)
    const afterRows = await readPage(db, zone.id, apexRev, reverseName(`a.${zone.name}`), 2)
    expect(after.names).toEqual(afterRows.names)
  })

  it('reads a page as rows when a field holds the separator', async () => {
    const zone = await createZone('read-page-del')
    await seed(zone, [...ROWS, ['e', 'TXT', '"one\x7ftwo"', null, null, 0]])
    const db = strictD1(env.DB)
    const apexRev = reverseName(zone.name)
    const joined = await readPage(db, zone.id, apexRev, '', 100, true)
    expect(joined.joinedFailed).toBe(true)
    expect(joined.names.at(-1)!.rows[0]!.content).toBe('"one\x7ftwo"')
    expect(joined.names).toEqual((await readPage(db, zone.id, apexRev, '', 100, false)).names)
  })

  it('reads a page as rows when a row is longer than a joined read takes', async () => {
    const zone = await createZone('read-page-long')
    const long = `"${'k'.repeat(250)}"`
    await seed(zone, [...ROWS, ['e', 'TXT', long, null, null, 0]])
    const db = strictD1(env.DB)
    const apexRev = reverseName(zone.name)
    const joined = await readPage(db, zone.id, apexRev, '', 100, true)
    expect(joined.joinedFailed).toBe(true)
    expect(joined.names.at(-1)!.rows[0]!.content).toBe(long)
    expect(joined.names).toEqual((await readPage(db, zone.id, apexRev, '', 100, false)).names)
  })
})
