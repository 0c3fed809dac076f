/**
 * @module With `yieldAfterHeadMs` (local development, where the builder shares the runtime's one
 * thread with the DoH worker and the API), a per-record pass writes its head and then leaves the
 * thread: the build_state report and the bucket flush wait until the yield is over, and a
 * notification arriving meanwhile ends it at once, so the next change is never held up by it.
 */
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { decodeHead, headKey, headSlot, headVersionKey } from '@edgedns/kv-layout'
import { limitsFrom } from '../limits.ts'
import type { BuilderStatus } from '../zone-builder.ts'
import {
  api,
  builder,
  committedSeq,
  converge,
  createZone,
  post,
  settle,
  sleep,
  tweak,
} from './helpers.ts'
import { DEFAULT_ACCOUNT } from '../../../../../test/api/helpers.ts'
import { configureOutgoing } from '../../../../../test/api/transfer-rows.ts'

const LONG_YIELD_MS = 60_000

async function status(zoneId: string): Promise<BuilderStatus> {
  return (await builder(zoneId).status()) as unknown as BuilderStatus
}

/** Waits until the builder's cursor reached `seq` (its head is out). */
async function headAt(zoneId: string, seq: number): Promise<BuilderStatus> {
  for (let i = 0; i < 2000; i++) {
    const s = await status(zoneId)
    if (s.cursor >= seq) return s
    await sleep(2)
  }
  throw new Error(`zone ${zoneId}: no head for ${seq}`)
}

/** Waits until head `n`'s versioned key is in KV; its value. */
async function versionedHead(zone: string, zoneId: string, n: number): Promise<string> {
  for (let i = 0; i < 2000; i++) {
    const value = await env.ZONES_KV.get(headVersionKey(zone, zoneId, n), 'text')
    if (value !== null) return value
    await sleep(2)
  }
  throw new Error(`zone ${zone}: head ${n} never written`)
}

async function reportedSeq(zoneId: string): Promise<number | null> {
  return (
    (await env.DB.prepare('SELECT built_seq FROM build_state WHERE zone_id = ?1')
      .bind(zoneId)
      .first<number>('built_seq')) ?? null
  )
}

describe('the yield after a head', () => {
  it('is off unless set, and bounded when set', () => {
    expect(limitsFrom({}).yieldAfterHeadMs).toBe(0)
    expect(limitsFrom({ BUILDER_YIELD_AFTER_HEAD_MS: '6' }).yieldAfterHeadMs).toBe(6)
    expect(limitsFrom({ BUILDER_YIELD_AFTER_HEAD_MS: 'x' }).yieldAfterHeadMs).toBe(0)
    expect(limitsFrom({ BUILDER_YIELD_AFTER_HEAD_MS: '100000' }).yieldAfterHeadMs).toBe(100)
    expect(limitsFrom({}).yieldAfterNotifyMs).toBe(0)
    expect(limitsFrom({ BUILDER_YIELD_AFTER_NOTIFY_MS: '40' }).yieldAfterNotifyMs).toBe(40)
    expect(limitsFrom({ BUILDER_YIELD_AFTER_NOTIFY_MS: '100000' }).yieldAfterNotifyMs).toBe(100)
  })

  it('publishes the head at once, reports and flushes after the yield, and a notification ends the yield', async () => {
    const z = await createZone('yield')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    await tweak(z.id, (b) => (b.limits = { ...b.limits, yieldAfterHeadMs: LONG_YIELD_MS }))
    const before = await reportedSeq(z.id)
    const n = (await status(z.id)).head.n + 1
    const started = Date.now()
    await post(z.id, { type: 'A', name: 'first', content: '192.0.2.3' })
    const first = await committedSeq(z.id)

    // The head that makes the change visible is in KV and on the feed; its slot (for readers
    // without the feed), the report and the flush wait.
    const head = await versionedHead(z.name, z.id, n)
    expect(head).toContain('first')
    await sleep(50)
    expect((await env.ZONES_KV.get(headKey(z.name, headSlot(n)), 'text')) ?? '').not.toContain(
      'first'
    )
    expect(await reportedSeq(z.id)).toBe(before)
    expect((await status(z.id)).dirtyBuckets).toBeGreaterThan(0)

    // The next change's notification ends the yield: its step builds it, the first step reports.
    await tweak(z.id, (b) => (b.limits = { ...b.limits, yieldAfterHeadMs: 0 }))
    await post(z.id, { type: 'A', name: 'second', content: '192.0.2.4' })
    const second = await committedSeq(z.id)
    // No alarm runs here: only the notification can have ended the first step's yield.
    await headAt(z.id, second)
    expect(Date.now() - started).toBeLessThan(LONG_YIELD_MS / 2)
    expect(await reportedSeq(z.id)).toBeGreaterThanOrEqual(first)
    const done = await settle(z.id)
    expect(done.cursor).toBe(second)
    expect(done.dirtyBuckets).toBe(0)
    expect(await reportedSeq(z.id)).toBe(second)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('after a head that started a NOTIFY round, lasts yieldAfterNotifyMs; without one, yieldAfterHeadMs', async () => {
    const limits = { yieldAfterHeadMs: 0, yieldAfterNotifyMs: LONG_YIELD_MS }
    const plain = await createZone('yield-plain')
    const notifying = await createZone('yield-notify')
    await configureOutgoing({
      zoneId: notifying.id,
      zoneName: notifying.name,
      accountId: DEFAULT_ACCOUNT,
      enabled: true,
      // A peer that never answers: the round runs beside the step, whatever becomes of it.
      peer: { ip: '192.0.2.53', port: 5353 },
    })
    for (const z of [plain, notifying]) {
      await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
      await settle(z.id)
      await tweak(z.id, (b) => (b.limits = { ...b.limits, ...limits }))
    }

    // No NOTIFY round: the report follows the head at once.
    await post(plain.id, { type: 'A', name: 'next', content: '192.0.2.6' })
    const plainSeq = await committedSeq(plain.id)
    await headAt(plain.id, plainSeq)
    for (let i = 0; i < 500 && (await reportedSeq(plain.id)) !== plainSeq; i++) await sleep(2)
    expect(await reportedSeq(plain.id)).toBe(plainSeq)

    // A NOTIFY round: the report waits for the longer yield (or the next notification).
    const before = await reportedSeq(notifying.id)
    await post(notifying.id, { type: 'A', name: 'next', content: '192.0.2.6' })
    const seq = await committedSeq(notifying.id)
    await headAt(notifying.id, seq)
    await sleep(50)
    expect(await reportedSeq(notifying.id)).toBe(before)
    await tweak(notifying.id, (b) => (b.limits = { ...b.limits, yieldAfterNotifyMs: 0 }))
    await post(notifying.id, { type: 'A', name: 'last', content: '192.0.2.7' })
    const last = await committedSeq(notifying.id)
    const done = await settle(notifying.id)
    expect(done.cursor).toBe(last)
    expect(await reportedSeq(notifying.id)).toBe(last)
  })

  it('lets a short yield run out by itself', async () => {
    const z = await createZone('yield')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    await tweak(z.id, (b) => (b.limits = { ...b.limits, yieldAfterHeadMs: 20 }))
    await post(z.id, { type: 'A', name: 'short', content: '192.0.2.5' })
    const seq = await committedSeq(z.id)
    const done = await settle(z.id)
    expect(done.cursor).toBe(seq)
    expect(done.dirtyBuckets).toBe(0)
    expect(await reportedSeq(z.id)).toBe(seq)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a subzone that appears while a step waits in its yield reaches the next head (the request is not saved away)', async () => {
    const z = await createZone('asked')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    await tweak(z.id, (b) => (b.limits = { ...b.limits, yieldAfterHeadMs: LONG_YIELD_MS }))
    const n = (await status(z.id)).head.n + 1
    await post(z.id, { type: 'A', name: 'first', content: '192.0.2.3' })
    // Head n is out; its step waits in the yield with its own copy of the state.
    await versionedHead(z.name, z.id, n)
    await tweak(z.id, (b) => (b.limits = { ...b.limits, yieldAfterHeadMs: 0 }))
    // The child's first build asks this builder to refresh its subzones: the request ends the
    // yield, and the step it interrupted saves its own state after it.
    const child = await api('POST', '/zones', {
      name: `child.${z.name}`,
      account: { id: DEFAULT_ACCOUNT },
    })
    expect(child.status).toBe(200)
    await settle(child.body.result.id)
    const done = await settle(z.id)
    const head = await env.ZONES_KV.get(headVersionKey(z.name, z.id, done.head.n), 'text')
    expect(decodeHead(head!).meta.subzones).toContain(`child.${z.name}`)
  })
})
