import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { allShards } from '../shards/databases.ts'
import { ensureLocalSchema } from './local-migrations.ts'

describe('local self-migration with several D1 shards', () => {
  it('migrates every bound shard, not only the first', async () => {
    const last = (env as unknown as Record<string, D1Database>).DB_2!
    // Shard 2 as if it had been added after migration 0014: its tables and bookkeeping row gone.
    await last.batch([
      last.prepare('DROP TABLE directory_accounts'),
      last.prepare('DROP TABLE directory_zones'),
      last.prepare('DROP TABLE shard_fences'),
      last.prepare("DELETE FROM d1_migrations WHERE name = '0014_shard_directory.sql'"),
    ])
    const shardEnv = { ...(env as unknown as Record<string, D1Database>), DB: env.DB }
    await ensureLocalSchema(
      { AUTO_MIGRATE_LOCAL: '1' },
      new URL('http://127.0.0.1:8787/client/v4/zones'),
      () => allShards(shardEnv).map((s) => s.db)
    )
    const tables = await last
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('directory_accounts', 'directory_zones', 'shard_fences') ORDER BY name"
      )
      .all<{ name: string }>()
    expect(tables.results.map((t) => t.name)).toEqual([
      'directory_accounts',
      'directory_zones',
      'shard_fences',
    ])
    const applied = await last
      .prepare("SELECT count(*) AS n FROM d1_migrations WHERE name = '0014_shard_directory.sql'")
      .first<{ n: number }>()
    expect(applied!.n).toBe(1)
  })
})
