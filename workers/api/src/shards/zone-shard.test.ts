import { describe, expect, it } from 'vitest'
import {
  chooseShard,
  DEFAULT_HIGH_WATER_BYTES,
  highWaterOf,
  PLACEMENT_BYTES_STEP,
  placementOf,
} from './zone-shard.ts'

const accounts = (...n: number[]) => n.map((accounts) => ({ accounts, bytes: 0 }))
const MB = PLACEMENT_BYTES_STEP
const bytes = (...b: number[]) => b.map((bytes) => ({ accounts: 0, bytes }))

describe('placing a new account', () => {
  it('least-bytes picks the shard holding the fewest bytes, the lowest index on a tie', () => {
    expect(chooseShard(bytes(3 * MB, MB, 2 * MB), 'least-bytes')).toBe(1)
    expect(chooseShard(bytes(5, 5, 5), 'least-bytes')).toBe(0)
    // Bytes decide, not accounts: many small accounts weigh less than one large one.
    expect(
      chooseShard(
        [
          { accounts: 1, bytes: 9e9 },
          { accounts: 50, bytes: 1e8 },
        ],
        'least-bytes'
      )
    ).toBe(1)
  })

  it('least-bytes shares out new accounts by count among shards of about the same size', () => {
    const loads = [
      { accounts: 4, bytes: 1000 },
      { accounts: 2, bytes: 9000 },
      { accounts: 3, bytes: 500 },
    ]
    expect(chooseShard(loads, 'least-bytes')).toBe(1)
    expect(chooseShard([...loads, { accounts: 9, bytes: 2 * MB }], 'least-bytes')).toBe(1)
    expect(
      chooseShard(
        [
          { accounts: 9, bytes: 0 },
          { accounts: 0, bytes: MB },
        ],
        'least-bytes'
      )
    ).toBe(0)
  })

  it('least-loaded picks the shard with the fewest accounts, the lowest index on a tie', () => {
    expect(chooseShard(accounts(3, 1, 2), 'least-loaded')).toBe(1)
    expect(chooseShard(accounts(2, 2, 2), 'least-loaded')).toBe(0)
    expect(chooseShard(accounts(5, 0, 0, 1), 'least-loaded')).toBe(1)
  })

  it('round-robin cycles through the shards by the number of accounts placed', () => {
    expect(chooseShard(accounts(1, 0, 0), 'round-robin')).toBe(1)
    expect(chooseShard(accounts(1, 1, 0), 'round-robin')).toBe(2)
    expect(chooseShard(accounts(9, 1, 2), 'round-robin')).toBe(0)
  })

  it('skips a shard at or past the high-water mark, whatever the policy, and finds none when all are', () => {
    expect(chooseShard(bytes(100, 50, 70), 'least-bytes', 60)).toBe(1)
    expect(chooseShard(bytes(10, 50, 70), 'least-bytes', 50)).toBe(0)
    expect(chooseShard(bytes(60, 50, 70), 'least-bytes', 50)).toBeNull()
    expect(
      chooseShard(
        [
          { accounts: 0, bytes: 90 },
          { accounts: 7, bytes: 10 },
        ],
        'least-loaded',
        80
      )
    ).toBe(1)
    expect(chooseShard(bytes(90, 10, 10), 'round-robin', 80)).toBe(1)
    expect(chooseShard(bytes(90, 90), 'round-robin', 80)).toBeNull()
  })

  it('reads the policy from SHARD_PLACEMENT, least-bytes unless another is asked for', () => {
    expect(placementOf({})).toBe('least-bytes')
    expect(placementOf({ SHARD_PLACEMENT: 'least-loaded' })).toBe('least-loaded')
    expect(placementOf({ SHARD_PLACEMENT: 'round-robin' })).toBe('round-robin')
    expect(placementOf({ SHARD_PLACEMENT: 'bogus' })).toBe('least-bytes')
  })

  it('reads the high-water mark from SHARD_HIGH_WATER_BYTES, with a default under D1’s 10 GB', () => {
    expect(highWaterOf({})).toBe(DEFAULT_HIGH_WATER_BYTES)
    expect(DEFAULT_HIGH_WATER_BYTES).toBeLessThan(10e9)
    expect(highWaterOf({ SHARD_HIGH_WATER_BYTES: '1000' })).toBe(1000)
    expect(highWaterOf({ SHARD_HIGH_WATER_BYTES: 'lots' })).toBe(DEFAULT_HIGH_WATER_BYTES)
  })
})
