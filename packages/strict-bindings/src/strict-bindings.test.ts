import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import {
  applyStrictLimits,
  inInvocation,
  parseSql,
  ProductionLimitError,
  strictD1,
  strictKv,
  takeBreaches,
} from './strict-bindings.ts'

/** Runs `fn`, expects it to breach `limit`, and clears the recorded breach (it is this test's point). */
async function expectBreach(limit: string, fn: () => unknown): Promise<ProductionLimitError> {
  let caught: unknown
  try {
    await fn()
  } catch (e) {
    caught = e
  }
  expect(caught).toBeInstanceOf(ProductionLimitError)
  const e = caught as ProductionLimitError
  expect(e.limit).toBe(limit)
  expect(e.message).toContain(limit)
  expect(takeBreaches().map((b) => b.limit)).toContain(limit)
  return e
}

afterEach(() => {
  expect(takeBreaches()).toEqual([])
})

describe('strict D1', () => {
  const db = strictD1(env.DB)

  it('passes statements within the limits through, in batches too', async () => {
    const one = await db
      .prepare('SELECT ?1 AS a, ?2 AS b')
      .bind(1, 'x')
      .first<{ a: number; b: string }>()
    expect(one).toEqual({ a: 1, b: 'x' })
    const [r] = await db.batch([db.prepare("SELECT 'ab' LIKE ?1 AS m").bind('a%')])
    expect(r!.results).toEqual([{ m: 1 }])
  })

  it('refuses more than 100 bound parameters', async () => {
    const sql = `SELECT ${Array.from({ length: 101 }, (_, i) => `?${i + 1}`).join(', ')}`
    const e = await expectBreach('D1 bound parameters', () =>
      db.prepare(sql).bind(...Array.from({ length: 101 }, () => 1))
    )
    expect(e.message).toContain('101 > 100')
  })

  it('refuses a statement over 100,000 bytes', async () => {
    await expectBreach('D1 statement length', () => db.prepare(`SELECT '${'x'.repeat(100_000)}'`))
  })

  it('refuses a bound string over 2,000,000 bytes', async () => {
    const e = await expectBreach('D1 string or BLOB size', () =>
      db.prepare('SELECT length(?1)').bind('é'.repeat(1_000_001))
    )
    expect(e.message).toContain('parameter 1 is 2000002 bytes')
  })

  it('refuses a result row over 2,000,000 bytes, even when each value fits', async () => {
    await expectBreach('D1 row size', () =>
      db.prepare('SELECT ?1 AS a, ?1 AS b').bind('x'.repeat(1_100_000)).all()
    )
  })

  it('refuses a LIKE pattern over 50 bytes, bound or literal', async () => {
    const bound = await expectBreach('D1 LIKE/GLOB pattern length', () =>
      db.prepare('SELECT 1 WHERE ?1 LIKE ?2').bind('a', `%.${'a'.repeat(60)}`)
    )
    expect(bound.message).toContain('62 bytes > 50')
    await expectBreach('D1 LIKE/GLOB pattern length', () =>
      db.prepare(`SELECT 1 WHERE 'a' LIKE '%${'b'.repeat(50)}'`)
    )
    await expectBreach('D1 LIKE/GLOB pattern length', () =>
      db.prepare(`SELECT 1 WHERE 'a' GLOB '*.' || ?`).bind('c'.repeat(49))
    )
    // 50 bytes exactly is allowed
    await db.prepare('SELECT 1 WHERE ?1 LIKE ?2').bind('a', 'x'.repeat(50)).all()
  })
})

describe('parseSql', () => {
  it('numbers bare and numbered parameters as SQLite does and skips literals and comments', () => {
    expect(parseSql("SELECT ? , '?' /* ? */ WHERE a LIKE ? || '%' AND b GLOB ?1").patterns).toEqual(
      [{ parts: [{ param: 1 }, { literal: '%' }] }, { parts: [{ param: 0 }] }]
    )
    expect(parseSql("SELECT 1 WHERE name LIKE '%.' || name").patterns).toEqual([])
  })
})

describe('strict KV', () => {
  it('counts operations per invocation, a bulk get as one', async () => {
    // An in-memory namespace: the count is the wrapper's, 2,000 real KV reads would only be slow.
    const memory = { get: async () => null } as unknown as KVNamespace
    const kv = strictKv(memory, { writeIntervalMs: 0 })
    await inInvocation(async () => {
      await kv.get(Array.from({ length: 100 }, (_, i) => `k${i}`))
      for (let i = 0; i < 999; i++) await kv.get('k')
    })
    const e = await expectBreach('KV operations per invocation', () =>
      inInvocation(async () => {
        for (let i = 0; i < 1001; i++) await kv.get('k')
      })
    )
    expect(e.message).toContain('operation 1001 > 1000')
    // A new invocation starts from zero.
    await inInvocation(() => kv.get('k'))
  })

  it('refuses keys over 512 bytes and values over 25 MiB', async () => {
    const kv = strictKv(env.ZONES_KV, { writeIntervalMs: 0 })
    await expectBreach('KV key size', () => kv.get('k'.repeat(513)))
    await expectBreach('KV value size', () => kv.put('big', new Uint8Array(25 * 1024 * 1024 + 1)))
  })

  it('refuses a second write to one key within a second, only when pacing is on', async () => {
    let t = 10_000
    const paced = strictKv(env.ZONES_KV, { writeIntervalMs: 1000, now: () => t })
    await paced.put('w', '1')
    t += 999
    await expectBreach('KV writes per key', () => paced.delete('w'))
    t += 1
    await paced.put('w', '2')
    const unpaced = strictKv(env.ZONES_KV, { writeIntervalMs: 0, now: () => t })
    await unpaced.put('w', '3')
    await unpaced.put('w', '4')
  })
})

describe('applyStrictLimits', () => {
  it('wraps the bindings only when STRICT_LIMITS is 1', () => {
    const base = { DB: env.DB, ZONES_KV: env.ZONES_KV, OTHER: 'x' }
    expect(applyStrictLimits(base)).toBe(base)
    const strict = applyStrictLimits({ ...base, STRICT_LIMITS: '1' })
    expect(strict.DB).not.toBe(env.DB)
    expect(strict.ZONES_KV).not.toBe(env.ZONES_KV)
    expect(strict.OTHER).toBe('x')
  })
})
