import { describe, expect, it } from 'vitest'
import { jsonChunks } from './json-chunks.ts'

const rows = Array.from({ length: 1000 }, (_, i) => [
  `id-${i}`,
  i % 7 === 0 ? null : `name "${i}"\n`,
  i,
  ['tag', { k: i }],
])

describe('jsonChunks', () => {
  it('keeps every value, in order, across chunks no longer than the limit', () => {
    for (const max of [100, 1000, 5000, 40_000, 1_000_000]) {
      const chunks = jsonChunks(rows, max)
      for (const c of chunks) expect(c.length).toBeLessThanOrEqual(max)
      expect(chunks.flatMap((c) => JSON.parse(c) as unknown[])).toEqual(rows)
    }
  })

  it('fills each chunk as far as the limit allows before starting the next', () => {
    const chunks = jsonChunks(rows, 5000)
    for (let k = 0; k + 1 < chunks.length; k++) {
      const next = JSON.stringify((JSON.parse(chunks[k + 1]!) as unknown[])[0])
      expect(chunks[k]!.length + next.length + 1).toBeGreaterThan(5000)
    }
  })

  it('gives a value longer than the limit a chunk of its own', () => {
    const long = 'x'.repeat(100)
    expect(jsonChunks(['a', long, 'b'], 50)).toEqual(['["a"]', `["${long}"]`, '["b"]'])
  })

  it('gives no chunk for no values', () => {
    expect(jsonChunks([])).toEqual([])
  })
})
