/**
 * Test helper: sets the shards' sizes apart by growing shards with a test-only table of blobs (D1
 * reports a database's size, which placement by bytes reads).
 */
import { env } from 'cloudflare:workers'
import { expect } from 'vitest'
import { shardSize } from '../../workers/api/src/shards/shard-sizes.ts'
import { PLACEMENT_BYTES_STEP } from '../../workers/api/src/shards/zone-shard.ts'

const shards = (): D1Database[] => {
  const bag = env as unknown as Record<string, D1Database>
  return [env.DB, bag.DB_1!, bag.DB_2!]
}

const sizes = () => Promise.all(shards().map(shardSize))

/** Grows shard `i` by about `bytes` (a test-only table of blobs). */
async function grow(i: number, bytes: number): Promise<void> {
  const db = shards()[i]!
  await db.prepare('CREATE TABLE IF NOT EXISTS test_ballast (b BLOB)').run()
  for (let left = bytes; left > 0; left -= 1_000_000)
    await db
      .prepare('INSERT INTO test_ballast (b) VALUES (zeroblob(?1))')
      .bind(Math.min(left, 1_000_000))
      .run()
}

/** Makes `target` the shard with the fewest bytes, by more than placement disregards. */
export async function makeSmallest(target: number): Promise<number[]> {
  const before = await sizes()
  const top = Math.max(...before)
  for (const i of [0, 1, 2])
    if (i !== target) await grow(i, top - before[i]! + 2 * PLACEMENT_BYTES_STEP)
  const after = await sizes()
  for (const i of [0, 1, 2]) if (i !== target) expect(after[i]).toBeGreaterThan(after[target]!)
  return after
}
