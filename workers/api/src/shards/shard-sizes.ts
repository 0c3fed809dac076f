/**
 * @module How many bytes each D1 shard holds, for placing new accounts by size. D1 reports a
 * database's size in the metadata of every query result (`meta.size_after`), locally and when
 * deployed, so one trivial query per shard reads it. Sizes are kept per isolate for a short while:
 * placement runs once per new account, and a shard's size changes slowly against its limit.
 */
import { allShards, type ShardEnv } from './databases.ts'

/** How long an isolate reuses the sizes it read. */
const SHARD_SIZE_CACHE_MS = 30_000

let cached: { at: number; key: string; sizes: number[] } | null = null

/** Reads one shard's size in bytes (0 when the binding does not report it). */
export async function shardSize(db: D1Database): Promise<number> {
  const r = await db.prepare('SELECT 1 AS x').run()
  const size = (r.meta as { size_after?: number }).size_after
  return typeof size === 'number' && Number.isFinite(size) ? size : 0
}

/** Every bound shard's size in bytes, in index order (cached per isolate for SHARD_SIZE_CACHE_MS). */
export async function shardSizes(env: ShardEnv, now = Date.now()): Promise<number[]> {
  const shards = allShards(env)
  const key = String(shards.length)
  if (cached && cached.key === key && now - cached.at < SHARD_SIZE_CACHE_MS) return cached.sizes
  const sizes = await Promise.all(shards.map(({ db }) => shardSize(db)))
  cached = { at: now, key, sizes }
  return sizes
}

/** Forgets the cached sizes (after a placement or a move changed them noticeably; tests). */
export function forgetShardSizes(): void {
  cached = null
}
