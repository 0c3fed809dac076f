import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { BUNDLED_MIGRATIONS } from './bundled-migrations.ts'
import { applyPendingMigrations, autoMigrateAllowed } from './local-migrations.ts'

describe('local self-migration', () => {
  it('runs only with AUTO_MIGRATE_LOCAL=1 and a request addressed to a loopback host', () => {
    expect(
      autoMigrateAllowed(
        { AUTO_MIGRATE_LOCAL: '1' },
        new URL('http://127.0.0.1:8787/client/v4/zones')
      )
    ).toBe(true)
    expect(autoMigrateAllowed({ AUTO_MIGRATE_LOCAL: '1' }, new URL('http://localhost:8787/'))).toBe(
      true
    )
    expect(autoMigrateAllowed({ AUTO_MIGRATE_LOCAL: '1' }, new URL('http://[::1]:8787/'))).toBe(
      true
    )
    expect(
      autoMigrateAllowed(
        { AUTO_MIGRATE_LOCAL: '1' },
        new URL('https://dns.example.com/client/v4/zones')
      )
    ).toBe(false)
    expect(
      autoMigrateAllowed(
        { AUTO_MIGRATE_LOCAL: '1' },
        new URL('https://edgedns-api.someone.workers.dev/')
      )
    ).toBe(false)
    expect(autoMigrateAllowed({}, new URL('http://127.0.0.1:8787/'))).toBe(false)
    expect(
      autoMigrateAllowed({ AUTO_MIGRATE_LOCAL: 'true' }, new URL('http://127.0.0.1:8787/'))
    ).toBe(false)
  })

  it('finds nothing to apply on a database migrated by wrangler (same bookkeeping table)', async () => {
    expect(await applyPendingMigrations(env.DB)).toEqual([])
    const { results } = await env.DB.prepare('SELECT name FROM d1_migrations ORDER BY id').all<{
      name: string
    }>()
    expect(results.map((r) => r.name)).toEqual(BUNDLED_MIGRATIONS.map((m) => m.name))
  })

  it('applies each pending migration exactly once, in order, when callers race', async () => {
    const migrations = [
      { name: '9001_race_table.sql', statements: ['CREATE TABLE race_probe (n INTEGER NOT NULL)'] },
      {
        name: '9002_race_rows.sql',
        statements: [
          'INSERT INTO race_probe (n) VALUES (1)',
          'INSERT INTO race_probe (n) VALUES (2)',
        ],
      },
      {
        name: '9003_race_more.sql',
        statements: ['INSERT INTO race_probe (n) SELECT n + 10 FROM race_probe'],
      },
    ]
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => applyPendingMigrations(env.DB, migrations))
    )
    expect(runs.flat().sort()).toEqual(migrations.map((m) => m.name))
    const { results } = await env.DB.prepare('SELECT n FROM race_probe ORDER BY n').all<{
      n: number
    }>()
    expect(results.map((r) => r.n)).toEqual([1, 2, 11, 12])
    expect(await applyPendingMigrations(env.DB, migrations)).toEqual([])
  })

  it('rolls a failing migration back whole and leaves it pending', async () => {
    const broken = [
      {
        name: '9101_broken.sql',
        statements: [
          'CREATE TABLE broken_probe (n INTEGER)',
          'INSERT INTO no_such_table VALUES (1)',
        ],
      },
    ]
    await expect(applyPendingMigrations(env.DB, broken)).rejects.toThrow(/no such table/)
    const probe = await env.DB.prepare(
      "SELECT count(*) AS n FROM sqlite_master WHERE name = 'broken_probe'"
    ).first<{ n: number }>()
    expect(probe?.n).toBe(0)
    const claimed = await env.DB.prepare(
      "SELECT count(*) AS n FROM d1_migrations WHERE name = '9101_broken.sql'"
    ).first<{ n: number }>()
    expect(claimed?.n).toBe(0)
  })
})
