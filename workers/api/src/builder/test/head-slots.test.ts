/**
 * @module A head's slot is written after its feed append: a slot that cannot be written fails the
 * step, and the retry writes the next head to its own slot and to the slots of the counters
 * skipped since the recorded head, so a reader confirming through the next slot never takes an
 * older head for "nothing newer".
 */
import { runDurableObjectAlarm } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { decodeHead, headKey, headSlot, headVersionKey } from '@edgedns/kv-layout'
import { skippedSlots } from '../head-slots.ts'
import {
  builder,
  converge,
  countingKv,
  createZone,
  newCounts,
  post,
  settle,
  sleep,
  tweak,
} from './helpers.ts'

/** The counter of the head in `zone`'s slot for counter `n` (0 when the slot is empty). */
async function slotHead(zone: string, n: number): Promise<number> {
  const text = await env.ZONES_KV.get(headKey(zone, headSlot(n)), 'text')
  return text === null ? 0 : decodeHead(text).n
}

describe('head slots after the append', () => {
  it("a slot that cannot be written fails the step; the retry's head goes to that slot too", async () => {
    const z = await createZone('slots')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    const before = await settle(z.id)
    const n = before.head.n + 1
    await tweak(z.id, (b) => {
      // Put 1 is head n's versioned key (it is announced); puts 2–4 are its slot's three tries.
      b.io = { ...b.io, kv: countingKv(b.io.kv, newCounts(), new Set([2, 3, 4])) }
      b.limits = { ...b.limits, backoffBaseMs: 60_000 }
    })
    await post(z.id, { type: 'A', name: 'new', content: '192.0.2.2' })
    for (let i = 0; i < 500 && (await builder(z.id).status()).failures === 0; i++) await sleep(2)
    const failed = await builder(z.id).status()
    expect(failed.lastError).toMatch(/injected KV failure on write 4/)
    expect(await env.ZONES_KV.get(headVersionKey(z.name, z.id, n), 'text')).toContain('new')
    expect(await slotHead(z.name, n)).toBeLessThan(n)

    expect(await runDurableObjectAlarm(builder(z.id))).toBe(true)
    const done = await settle(z.id)
    expect(done.head.n).toBeGreaterThan(n)
    // Head n's slot holds a newer head now, not the one from eight counters before.
    expect(await slotHead(z.name, n)).toBeGreaterThan(n)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a slot put that failed after landing is tried again only once the key may be written again', async () => {
    const z = await createZone('slotpace')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    const before = await settle(z.id)
    const n = before.head.n + 1
    const slot = headKey(z.name, headSlot(n))
    const intervalMs = 80
    await tweak(z.id, (b) => {
      const kv = b.io.kv
      let landedAt = 0
      // KV as deployed for this slot: its first put lands but reports a failure, and a second
      // write within the key's interval is refused.
      const put = async (key: string, value: string, opts?: KVNamespacePutOptions) => {
        if (key !== slot) return kv.put(key, value, opts)
        const now = Date.now()
        if (landedAt > 0 && now - landedAt < intervalMs)
          throw new Error('KV PUT failed: 429 Too Many Requests')
        await kv.put(key, value, opts)
        const first = landedAt === 0
        landedAt = now
        if (first) throw new Error('KV PUT failed: 500 (the value was stored)')
      }
      b.io = { ...b.io, kv: { ...kv, get: kv.get.bind(kv), put } as unknown as KVNamespace }
      b.limits = { ...b.limits, keyWriteIntervalMs: intervalMs, backoffBaseMs: 60_000 }
    })
    await post(z.id, { type: 'A', name: 'new', content: '192.0.2.2' })
    let status = await builder(z.id).status()
    for (let i = 0; i < 500 && status.head.n < n && status.failures === 0; i++) {
      await sleep(5)
      status = await builder(z.id).status()
    }
    expect(status.lastError).toBeNull()
    expect(status.head.n).toBe(n)
    expect(await slotHead(z.name, n)).toBe(n)
  })

  it('lists the slots of the counters between the recorded head and the next, none for a first head', () => {
    expect(skippedSlots('a.test', 5, 6)).toEqual([])
    expect(skippedSlots('a.test', 5, 8)).toEqual([headKey('a.test', 6), headKey('a.test', 7)])
    expect(skippedSlots('a.test', 0, 9)).toEqual([])
    expect(skippedSlots('a.test', 3, 30)).toHaveLength(8)
  })
})
