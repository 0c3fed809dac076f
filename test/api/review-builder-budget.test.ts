/**
 * Review: a full-build page ignores the per-invocation KV budget when names have many empty
 * non-terminals above them (fails today: 1,201 KV writes in one invocation with default limits).
 */
import { describe, expect, it } from 'vitest'
import { api, builder, countingKv, createZone, newCounts, settle, tweak } from '../builder/helpers.ts'

describe('review: full build stays within maxKvOps per invocation', () => {
  // Known bug (review finding 3, see the session note): a full-build page with many ENTs overspends. Remove .fails once fixed.
  it.fails('does not issue more KV operations than limits.maxKvOps in one step', async () => {
    const z = await createZone()
    const posts = Array.from({ length: 200 }, (_, i) => ({ type: 'A', name: `h${i}.a${i}.b${i}.c${i}.d${i}.e${i}`, content: '192.0.2.1' }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    await settle(z.id)
    const counts = newCounts()
    let max = 0
    await tweak(z.id, (b) => {
      b.io = { ...b.io, kv: countingKv(b.io.kv, counts) }
      max = b.limits.maxKvOps
    })
    await builder(z.id).rebuild(z.id) // one step = one invocation
    expect(counts.puts.length + counts.deletes.length + counts.lists).toBeLessThanOrEqual(max)
  })
})
