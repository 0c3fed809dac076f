/**
 * `pnpm run deploy` with D1 shards configured, against a stubbed wrangler
 * (./test-deploy-account.ts): each missing shard is created, bound and migrated.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module
import { API_CONFIG, deploy, readIds } from './deploy-steps.mjs'
import { D1_ID, fakeAccount, read, root } from './test-deploy-account.ts'

/** wrangler.toml with shards DB_1 and DB_2 bound as docs/shards.md says: no id yet. */
function addShards(...names: string[]) {
  const tables = names
    .map(
      (name, i) =>
        `[[d1_databases]]\nbinding = "DB_${i + 1}"\ndatabase_name = "${name}"\nmigrations_dir = "migrations"\n`
    )
    .join('\n')
  writeFileSync(
    path.join(root, API_CONFIG),
    read(API_CONFIG).replace('[[kv_namespaces]]', `${tables}\n[[kv_namespaces]]`)
  )
}

describe('pnpm run deploy: D1 shards', () => {
  it('creates every configured shard that is missing, writes its id into its own binding and migrates every shard', () => {
    addShards('edgedns-1', 'edgedns-2')
    const SHARD_1 = '11111111-0000-4000-8000-000000000001'
    const account = fakeAccount({ d1: [{ uuid: SHARD_1, name: 'edgedns-1' }] })
    const result = deploy({ run: account.run, root })
    expect(
      account.commands.filter((c) => c[0] === 'd1' && (c[1] === 'create' || c[1] === 'migrations'))
    ).toEqual([
      ['d1', 'create', 'edgedns'],
      ['d1', 'create', 'edgedns-2'],
      ['d1', 'migrations', 'apply', 'edgedns', '--remote', '-c', 'wrangler.toml'],
      ['d1', 'migrations', 'apply', 'edgedns-1', '--remote', '-c', 'wrangler.toml'],
      ['d1', 'migrations', 'apply', 'edgedns-2', '--remote', '-c', 'wrangler.toml'],
    ])
    const SHARD_2 = account.state.d1.find((d) => d.name === 'edgedns-2')!.uuid
    expect(result.d1.map((d: { created: boolean }) => d.created)).toEqual([true, false, true])
    expect(readIds(root).d1).toEqual([
      { file: API_CONFIG, binding: 'DB', id: D1_ID },
      { file: API_CONFIG, binding: 'DB_1', id: SHARD_1 },
      { file: API_CONFIG, binding: 'DB_2', id: SHARD_2 },
    ])
    expect(read(API_CONFIG)).toContain(
      `binding = "DB_2"\ndatabase_name = "edgedns-2"\ndatabase_id = "${SHARD_2}"\nmigrations_dir = "migrations"\n`
    )
    // The deployed worker binds every shard by its id.
    const deployed = account.state.workers.get('edgedns-api')!.config
    for (const id of [D1_ID, SHARD_1, SHARD_2]) expect(deployed).toContain(`database_id = "${id}"`)

    const configs = read(API_CONFIG)
    account.calls.length = 0
    deploy({ run: account.run, root })
    expect(account.commands.filter((c) => c[1] === 'create')).toEqual([])
    expect(account.commands.filter((c) => c[1] === 'migrations').map((c) => c[3])).toEqual([
      'edgedns',
      'edgedns-1',
      'edgedns-2',
    ])
    expect(read(API_CONFIG)).toBe(configs)
  })

  it('refuses shard bindings with a gap (the API would never use the shards after it) before touching the account', () => {
    addShards('edgedns-1', 'edgedns-2')
    writeFileSync(
      path.join(root, API_CONFIG),
      read(API_CONFIG).replace(/^binding = "DB_1"$/m, 'binding = "DB_3"')
    )
    const account = fakeAccount()
    expect(() => deploy({ run: account.run, root })).toThrow(/without gaps/)
    expect(account.calls).toEqual([])
  })
})
