import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { StagedList } from './staged-list.ts'

/** `env.DB` with every statement it prepares and binds recorded (its SQL's first word, its bindings). */
function recorded(): { db: D1Database; calls: { verb: string; args: unknown[] }[] } {
  const calls: { verb: string; args: unknown[] }[] = []
  const db = {
    prepare(sql: string) {
      const statement = env.DB.prepare(sql)
      const verb = sql.trim().split(/\s/)[0]!
      return {
        bind: (...args: unknown[]) => {
          calls.push({ verb, args })
          return statement.bind(...args)
        },
      }
    },
  } as unknown as D1Database
  return { db, calls }
}

const stagedRowsOf = async (id: string): Promise<number> =>
  (await env.DB.prepare('SELECT count(*) AS n FROM import_staging WHERE import_id = ?1')
    .bind(id)
    .first<{ n: number }>())!.n
const utf8 = (s: string): number => new TextEncoder().encode(s).length

describe("a transfer's staged list", () => {
  it('reads back the records at given indices, across staged rows and flushes', async () => {
    const list = new StagedList(env.DB, `xfr-test:${crypto.randomUUID()}`, 'z', 'now', 250)
    try {
      const json = (i: number) => JSON.stringify([`id-${i}`, `r-${i}`, null, 300])
      for (let i = 0; i < 1234; i++) await list.addJson(json(i))
      await list.flush()
      const at = [0, 1, 99, 100, 101, 249, 250, 777, 1000, 1233]
      const read: string[] = []
      for await (const r of list.recordsAt(at)) read.push(r)
      expect(read).toEqual(at.map(json))
      const none: string[] = []
      for await (const r of list.recordsAt([])) none.push(r)
      expect(none).toEqual([])
      await expect(async () => {
        for await (const _ of list.recordsAt([1234])) void _
      }).rejects.toThrow('no record 1234')
    } finally {
      await list.discard()
    }
  })

  it("stages as many records a statement as fit D1's string limit, counting non-ASCII text as three bytes a character", async () => {
    const { db, calls } = recorded()
    const id = `xfr-test:${crypto.randomUUID()}`
    const list = new StagedList(db, id, 'z', 'now', 20_000)
    try {
      const ascii = JSON.stringify(['a', 'x'.repeat(100_000)])
      const wide = JSON.stringify(['w', 'é'.repeat(100_000)])
      for (let i = 0; i < 20; i++) await list.addJson(ascii)
      for (let i = 0; i < 20; i++) await list.addJson(wide)
      await list.flush()
      const staging = calls.filter((c) => c.verb === 'INSERT').map((c) => c.args[4] as string)
      // 17 ASCII records a statement (100,008 characters, counted 100,009 bytes with a comma: 1.8
      // MB), then 3 beside 4 wide ones (counted 300,025 bytes), then wide ones five a statement.
      expect(staging.map((json) => (JSON.parse(json) as unknown[][]).flat().length)).toEqual([
        17, 7, 5, 5, 5, 1,
      ])
      for (const json of staging) expect(utf8(json)).toBeLessThanOrEqual(2_000_000)
      const back: string[] = []
      for await (const r of list.recordsAt([0, 19, 20, 39])) back.push(r)
      expect(back).toEqual([ascii, ascii, wide, wide])
    } finally {
      await list.discard()
    }
    expect(await stagedRowsOf(id)).toBe(0)
  })

  it('reads and discards its staged rows in few statements, each of about 20,000,000 characters at most', async () => {
    const { db, calls } = recorded()
    const short = new StagedList(db, `xfr-test:${crypto.randomUUID()}`, 'z', 'now', 250)
    const long = new StagedList(db, `xfr-test:${crypto.randomUUID()}`, 'z', 'now', 20_000)
    for (let i = 0; i < 5000; i++) await short.addJson(JSON.stringify([`id-${i}`, 300]))
    await short.flush()
    // 204 records of 100,008 characters, staged 17 a statement: each statement's rows hold two
    // records (300,000 characters at most a row), the last one; 105 rows come to 19.9 M characters.
    const record = JSON.stringify(['l', 'y'.repeat(100_000)])
    for (let i = 0; i < 204; i++) await long.addJson(record)
    await long.flush()
    expect(await stagedRowsOf(short.id)).toBe(60)
    expect(await stagedRowsOf(long.id)).toBe(108)
    expect(short.ranges()).toHaveLength(30)
    expect(long.ranges()).toEqual([
      [0, 104],
      [105, 107],
    ])
    calls.length = 0
    await short.discard()
    await long.discard()
    expect(calls.map((c) => [c.verb, c.args[1], c.args[2]])).toEqual([
      ['DELETE', 0, 59],
      ['DELETE', 0, 104],
      ['DELETE', 105, 107],
    ])
    expect(await stagedRowsOf(short.id)).toBe(0)
    expect(await stagedRowsOf(long.id)).toBe(0)
  })
})
