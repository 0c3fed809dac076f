/**
 * An outgoing AXFR reads its pages as joined strings: a page that cannot be split, a joined read
 * that fails and records far longer than the page before still give every record once.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { everyTypeZone } from './import-export-fixture.ts'
import { importZone } from './import-export-helpers.ts'
import { pagedLines, wireLine, zoneWithTransfers } from './transfer-relay.ts'

/** Rows stored straight into D1 (as an earlier, laxer check could have written them). */
async function storeRows(
  zone: { id: string; name: string },
  rows: [suffix: string, owner: string, type: string, content: string, data: string | null][]
): Promise<void> {
  const stamp = new Date().toISOString()
  for (const [suffix, owner, type, content, data] of rows) {
    const name = `${owner}.${zone.name}`
    await env.DB.prepare(
      `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, data, ttl, created_on, modified_on)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 300, ?8, ?8)`
    )
      .bind(
        zone.id.slice(0, 32 - suffix.length) + suffix,
        zone.id,
        name,
        name.split('.').reverse().join('.'),
        type,
        content,
        data,
        stamp
      )
      .run()
  }
}

/**
 * The test environment with a D1 that fails each joined page read whose page is longer than
 * `limit` characters (as D1 fails a string past its longest), counting the failures.
 */
function joinedReadsUpTo(limit: number): { env: object; failures: () => number } {
  let failures = 0
  const joined = new WeakMap<object, D1PreparedStatement>()
  const check = (page: { page: string | null } | null) => {
    if ((page?.page?.length ?? 0) <= limit) return page
    failures++
    throw new Error('string or blob too big')
  }
  const wrap = (real: D1PreparedStatement): D1PreparedStatement => {
    const statement = {
      bind: (...values: unknown[]) => wrap(real.bind(...values)),
      first: async () => check(await real.first()),
    }
    joined.set(statement, real)
    return statement as unknown as D1PreparedStatement
  }
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'prepare')
        return (sql: string) =>
          sql.includes('group_concat') ? wrap(target.prepare(sql)) : target.prepare(sql)
      if (prop === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements.map((s) => joined.get(s) ?? s))
          statements.forEach((s, i) => {
            if (joined.has(s)) check(results[i]!.results[0] as { page: string | null })
          })
          return results
        }
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { env: { ...env, DB: db }, failures: () => failures }
}

describe('outgoing AXFR pages read joined', () => {
  it('transfers records whose fields hold the joined separator (DEL) as stored, at any page size', async () => {
    const zone = await zoneWithTransfers()
    expect((await importZone(zone.id, everyTypeZone(zone.name))).status).toBe(200)
    await storeRows(zone, [
      ['e', 'txt', 'TXT', '"\x7f" "z"', null],
      [
        'f',
        'caa',
        'CAA',
        '0 issue "ca.example"',
        '{"flags":0,"tag":"issue","value":"ca.example","x":"\x7f"}',
      ],
    ])
    const whole = await pagedLines(zone.name, 10_000)
    expect(whole).toContain(wireLine(`txt.${zone.name}`, 300, 16, '"\\127" "z"'))
    expect(whole).toContain(wireLine(`caa.${zone.name}`, 300, 257, '0 issue "ca.example"'))
    for (const pageSize of [1, 2, 3]) expect(await pagedLines(zone.name, pageSize)).toEqual(whole)
  })

  it('transfers the whole zone as rows when D1 fails its joined reads, first page or later', async () => {
    const zone = await zoneWithTransfers()
    expect((await importZone(zone.id, everyTypeZone(zone.name))).status).toBe(200)
    const whole = await pagedLines(zone.name, 10_000)
    for (const pageSize of [2, 10_000]) {
      const failing = joinedReadsUpTo(-1)
      expect(await pagedLines(zone.name, pageSize, failing.env)).toEqual(whole)
      expect(failing.failures()).toBeGreaterThan(0)
    }
  })

  it('asks for fewer records a page after long ones, so its joined pages stay under the longest string D1 allows', async () => {
    // 2,000 short A records, then 3,000 TXT records of about 3,900 characters, in pages of 2,000:
    // the first page of TXT records is too long (read again as rows); the pages after it ask for
    // as many records as the one before says fit, and are read joined.
    const zone = await zoneWithTransfers()
    const txt = Array(16)
      .fill(`"${'x'.repeat(240)}"`)
      .join(' ')
    await env.DB.prepare(
      `INSERT INTO dns_records (id, zone_id, name, name_rev, type, content, ttl, created_on, modified_on)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 5000)
       SELECT substr(?1, 1, 16) || printf('%016x', i), ?1,
         printf('%s-%04d.', iif(i < 2000, 'a', 'b'), i) || ?2,
         ?3 || printf('.%s-%04d', iif(i < 2000, 'a', 'b'), i),
         iif(i < 2000, 'A', 'TXT'), iif(i < 2000, '192.0.2.1', ?4), 300, ?5, ?5 FROM n`
    )
      .bind(
        zone.id,
        zone.name,
        zone.name.split('.').reverse().join('.'),
        txt,
        new Date().toISOString()
      )
      .run()
    const limited = joinedReadsUpTo(2_000_000)
    const lines = await pagedLines(zone.name, 2_000, limited.env)
    expect(limited.failures()).toBe(1)
    expect(new Set(lines).size).toBe(lines.length - 1)
    expect(lines.filter((l) => l.split(' ')[2] === '16')).toHaveLength(3_000)
    expect(lines.filter((l) => l.split(' ')[2] === '1')).toHaveLength(2_000)
  })
})
