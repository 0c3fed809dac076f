/**
 * Review: a full build stays within the per-invocation KV budget even when names have many empty
 * non-terminals above them (the build charges bucket writes, not names, and resumes in the next
 * invocation).
 */
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ZoneBuilder } from '../../workers/api/src/builder/zone-builder.ts'
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

type AlarmSetter = DurableObjectStorage['setAlarm']

/** Makes the zone's builder set no alarm (and deletes its pending one); returns the real setter. */
async function holdAlarms(zoneId: string): Promise<AlarmSetter> {
  return runInDurableObject(builder(zoneId), async (_b: ZoneBuilder, state) => {
    const real = state.storage.setAlarm.bind(state.storage)
    state.storage.setAlarm = () => Promise.resolve()
    await state.storage.deleteAlarm()
    return real
  })
}

/** Gives the builder its alarm setter back. */
async function releaseAlarms(zoneId: string, real: AlarmSetter): Promise<void> {
  await runInDurableObject(builder(zoneId), (_b: ZoneBuilder, state) => {
    state.storage.setAlarm = real
  })
}

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
    // The steps are driven one at a time below: the alarm that would continue the build by itself
    // is held back, so each count is one step's (an alarm's step would otherwise run between a
    // step's end and the next count, or during a step's timer turns, and be counted with it).
    const setAlarm = await holdAlarms(z.id)
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
    await releaseAlarms(z.id, setAlarm)
    await settle(z.id)
    expect((await converge(z.id)).differences).toEqual([])
  })
})
