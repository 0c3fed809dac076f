/**
 * Review: a full build stays within the per-invocation KV budget even when names have many empty
 * non-terminals above them (the build charges bucket writes, not names, and resumes in the next
 * invocation).
 */
import { describe, expect, it } from 'vitest'
import {
  api,
  builder,
  converge,
  countingKv,
  createZone,
  newCounts,
  settle,
  tweak,
} from '../../workers/api/src/builder/test/helpers.ts'

describe('review: full build stays within maxKvOps per invocation', () => {
  it('does not issue more KV operations than limits.maxKvOps in one step, and still converges', async () => {
    const z = await createZone()
    const posts = Array.from({ length: 200 }, (_, i) => ({
      type: 'A',
      name: `h${i}.a${i}.b${i}.c${i}.d${i}.e${i}`,
      content: '192.0.2.1',
    }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    await settle(z.id)
    const max = 6
    await tweak(z.id, (b) => (b.limits = { ...b.limits, maxKvOps: max, listPage: 5 }))
    let steps = 0
    for (let full = true; full; steps++) {
      const counts = newCounts()
      await tweak(z.id, (b) => (b.io = { ...b.io, kv: countingKv(b.io.kv, counts) }))
      const status =
        steps === 0
          ? await builder(z.id).rebuild(z.id)
          : (await builder(z.id).notify(z.id, 0), await builder(z.id).status())
      expect(counts.puts.length + counts.deletes.length + counts.lists).toBeLessThanOrEqual(max)
      full = status.full !== null || status.fullRequested
      expect(steps).toBeLessThan(100)
    }
    expect(steps).toBeGreaterThan(2) // 16 buckets + meta + prunes cannot fit in 6 operations
    await settle(z.id)
    expect((await converge(z.id)).differences).toEqual([])
  })
})
