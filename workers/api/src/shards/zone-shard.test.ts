import { describe, expect, it } from 'vitest'
import { chooseShard, placementOf } from './zone-shard.ts'

describe('placing a new account', () => {
  it('least-loaded picks the shard with the fewest accounts, the lowest index on a tie', () => {
    expect(chooseShard([3, 1, 2], 'least-loaded')).toBe(1)
    expect(chooseShard([2, 2, 2], 'least-loaded')).toBe(0)
    expect(chooseShard([5, 0, 0, 1], 'least-loaded')).toBe(1)
  })

  it('round-robin cycles through the shards by the number of accounts placed', () => {
    expect(chooseShard([1, 0, 0], 'round-robin')).toBe(1)
    expect(chooseShard([1, 1, 0], 'round-robin')).toBe(2)
    expect(chooseShard([9, 1, 2], 'round-robin')).toBe(0)
  })

  it('reads the policy from SHARD_PLACEMENT, least-loaded unless round-robin is asked for', () => {
    expect(placementOf({})).toBe('least-loaded')
    expect(placementOf({ SHARD_PLACEMENT: 'round-robin' })).toBe('round-robin')
    expect(placementOf({ SHARD_PLACEMENT: 'bogus' })).toBe('least-loaded')
  })
})
