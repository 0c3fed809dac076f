/**
 * @module The D1 shards this worker is bound to. Shard 0 is the home database: it holds the global
 * tables (accounts, API tokens) and the shard directory, and zones placed on it. It is bound as
 * `DB` (or `DB_0`); shards 1…n-1 are `DB_1`…`DB_{n-1}`, numbered without gaps.
 */
import { ApiError, Codes } from '../http/api-error.ts'

export interface ShardEnv {
  DB: D1Database
}

function binding(env: ShardEnv, index: number): D1Database | undefined {
  const bag = env as unknown as Record<string, D1Database | undefined>
  return index === 0 ? (bag['DB_0'] ?? env.DB) : bag[`DB_${index}`]
}

/** How many shards are bound: `DB`/`DB_0` plus `DB_1`, `DB_2`, … up to the first gap. */
export function shardCount(env: ShardEnv): number {
  let n = 1
  while (binding(env, n) !== undefined) n++
  return n
}

/** The D1 database of shard `index`; a shard the directory names but this worker lacks is a 503. */
export function shardDb(env: ShardEnv, index: number): D1Database {
  const db = binding(env, index)
  if (db === undefined) {
    throw new ApiError(
      503,
      Codes.shardUnavailable,
      `D1 shard ${index} is not bound to this worker (binding DB_${index}); deploy with every shard bound`
    )
  }
  return db
}

/** Shard 0: the global tables and the directory. */
export function homeDb(env: ShardEnv): D1Database {
  return shardDb(env, 0)
}

/** Every bound shard, in index order. */
export function allShards(env: ShardEnv): { index: number; db: D1Database }[] {
  return Array.from({ length: shardCount(env) }, (_, index) => ({ index, db: shardDb(env, index) }))
}
