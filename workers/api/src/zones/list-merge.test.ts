import { describe, expect, it } from 'vitest'
import { compareBinary, mergeShardPages, type ListedZone } from './list-merge.ts'

const row = (name: string, sort: unknown = name): ListedZone => ({ id: name, name, sort })

describe('merging shard pages of GET /zones', () => {
  it('gives the first rows of the combined order, by sort value then name, in either direction', () => {
    const a = [row('a.example', 'active'), row('c.example', 'active'), row('b.example', 'pending')]
    const b = [row('b.example2', 'active'), row('a.example2', 'pending')]
    expect(mergeShardPages([a, b], 'ASC', 4).map((r) => r.name)).toEqual([
      'a.example',
      'b.example2',
      'c.example',
      'a.example2',
    ])
    expect(
      mergeShardPages([[...a].reverse(), [...b].reverse()], 'DESC', 2).map((r) => r.name)
    ).toEqual(['b.example', 'a.example2'])
  })

  it('orders text as SQLite BINARY collation does (UTF-8 bytes), also beyond the BMP', () => {
    // U+FF5E sorts after U+1F600 in UTF-16 code units but before it in UTF-8 bytes.
    expect(compareBinary('\uff5e', '\u{1f600}')).toBeLessThan(0)
    expect('\uff5e' < '\u{1f600}').toBe(false)
    expect(compareBinary('Zeta', 'alpha')).toBeLessThan(0)
    expect(compareBinary('ab', 'abc')).toBeLessThan(0)
    expect(compareBinary('é', 'é')).toBe(0)
  })

  it('puts NULL sort values first, as SQLite orders them', () => {
    const merged = mergeShardPages([[row('b', 'x')], [row('a', null)]], 'ASC', 2)
    expect(merged.map((r) => r.name)).toEqual(['a', 'b'])
  })
})
