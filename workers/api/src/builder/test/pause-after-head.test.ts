/**
 * @module With `afterHeadPauseMs` (local development, where the builder shares the runtime's one
 * thread with the DoH worker), a per-record pass writes its head and ends its step: the build_state
 * report and the bucket folding follow in the alarm once the pause is over, and the alarm's step
 * reads no change log when the pass had consumed every notified change. A change notified during
 * the pause is built at once and does not push the resumption further out.
 */
import { env, runDurableObjectAlarm } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { headKey, headSlot } from '@edgedns/kv-layout'
import { SQL } from '../queries.ts'
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

const PAUSE_MS = 60_000

async function status(zoneId: string): Promise<BuilderStatus> {
  return (await builder(zoneId).status()) as unknown as BuilderStatus
}

/** Waits until the builder's cursor reached `seq` (the head is out), without running alarms. */
async function headAt(zoneId: string, seq: number): Promise<BuilderStatus> {
  for (let i = 0; i < 2000; i++) {
    const s = await status(zoneId)
    if (s.cursor >= seq) return s
    await sleep(2)
  }
  throw new Error(`zone ${zoneId}: no head for ${seq}`)
}

async function reportedSeq(zoneId: string): Promise<number | null> {
  return (
    (await env.DB.prepare('SELECT built_seq FROM build_state WHERE zone_id = ?1')
      .bind(zoneId)
      .first<number>('built_seq')) ?? null
  )
}

/** Logs build_state reports of the builder's D1 into `events`. */
function reportLoggingDb(db: D1Database, events: string[]): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare')
        return (sql: string) => {
          if (sql.trimStart().startsWith('INSERT INTO build_state')) events.push('report')
          return target.prepare(sql)
        }
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

/** Logs KV writes into `events`. */
function putLoggingKv(kv: KVNamespace, events: string[]): KVNamespace {
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === 'put')
        return (key: string, value: string) => {
          events.push(`put ${key}`)
          return target.put(key, value)
        }
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

/** Counts change-log reads of the builder's D1. */
function logCountingDb(db: D1Database, counter: { log: number }): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare')
        return (sql: string) => {
          if (sql === SQL.log) counter.log++
          return target.prepare(sql)
        }
      const value = Reflect.get(target, prop) as unknown
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

describe('a pause after the head', () => {
  it('publishes the head at once and leaves the report and the folding to the alarm', async () => {
    const z = await createZone('pause')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const counter = { log: 0 }
    await tweak(z.id, (b) => {
      b.limits = { ...b.limits, afterHeadPauseMs: PAUSE_MS }
      b.io = { ...b.io, db: logCountingDb(b.io.db, counter) }
    })
    const before = await reportedSeq(z.id)
    await post(z.id, { type: 'A', name: 'paused', content: '192.0.2.2' })
    const seq = await committedSeq(z.id)
    const s = await headAt(z.id, seq)

    // The head that makes the change visible is in KV, its name in the overlay.
    const head = await env.ZONES_KV.get(headKey(z.name, headSlot(s.head.n)), 'text')
    expect(head).toContain('paused')
    // The rest waits: no report, the bucket still dirty, the alarm at the end of the pause.
    expect(await reportedSeq(z.id)).toBe(before)
    expect(s.dirtyBuckets).toBeGreaterThan(0)
    expect(s.alarm).toBeGreaterThan(Date.now() + PAUSE_MS / 2)
    expect(counter.log).toBe(1)

    expect(await runDurableObjectAlarm(builder(z.id))).toBe(true)
    const after = await status(z.id)
    expect(await reportedSeq(z.id)).toBe(seq)
    expect(after.dirtyBuckets).toBe(0)
    // The pass had consumed every notified change: resuming read no log.
    expect(counter.log).toBe(1)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('builds a change notified during the pause at once, and resumes when the first pause ends', async () => {
    const z = await createZone('pause')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    await tweak(z.id, (b) => (b.limits = { ...b.limits, afterHeadPauseMs: PAUSE_MS }))
    await post(z.id, { type: 'A', name: 'first', content: '192.0.2.3' })
    const first = await headAt(z.id, await committedSeq(z.id))
    await sleep(20)
    await post(z.id, { type: 'A', name: 'second', content: '192.0.2.4' })
    const second = await headAt(z.id, await committedSeq(z.id))
    expect(second.head.n).toBe(first.head.n + 1)
    expect(second.alarm).toBe(first.alarm)

    expect(await runDurableObjectAlarm(builder(z.id))).toBe(true)
    expect(await reportedSeq(z.id)).toBe(await committedSeq(z.id))
    expect((await status(z.id)).dirtyBuckets).toBe(0)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('reports the head before folding its buckets when it resumes', async () => {
    const z = await createZone('pause')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const events: string[] = []
    await tweak(z.id, (b) => {
      b.limits = { ...b.limits, afterHeadPauseMs: PAUSE_MS }
      b.io = { ...b.io, db: reportLoggingDb(b.io.db, events), kv: putLoggingKv(b.io.kv, events) }
    })
    const posts = Array.from({ length: 40 }, (_, i) => ({
      type: 'A',
      name: `n${i}`,
      content: '192.0.2.5',
    }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    const seq = await committedSeq(z.id)
    await headAt(z.id, seq)
    expect(events.filter((e) => e.startsWith(`put b:`))).toEqual([])
    expect(await runDurableObjectAlarm(builder(z.id))).toBe(true)
    const firstBucket = events.findIndex((e) => e.startsWith('put b:'))
    expect(firstBucket).toBeGreaterThan(0)
    expect(events.indexOf('report')).toBeGreaterThanOrEqual(0)
    expect(events.indexOf('report')).toBeLessThan(firstBucket)
    expect(await reportedSeq(z.id)).toBe(seq)
    await settle(z.id)
    expect((await converge(z.id)).differences).toEqual([])
  })
})
