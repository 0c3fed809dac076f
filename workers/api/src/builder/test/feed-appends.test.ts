/**
 * @module The builder against the zone-change feed contract, over a run of passes, bucket
 * flushes, a full build and a purge, through a recording KV and a recording feed: bucket keys are
 * written once, every key a feed entry names is in KV before the entry, superseded versions go
 * only after the grace period and within the budget, a failed append is retried and the newest
 * head always reaches the feed, and a purge's delete entry comes before its deletes.
 */
import { runDurableObjectAlarm } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import {
  bucketKey,
  bucketVersion,
  decodeHead,
  headVersionKey,
  type ZoneHead,
} from '@edgedns/kv-layout'
import type { FeedAppend, FeedAppender } from '@edgedns/zone-feed'
import { env } from 'cloudflare:workers'
import { api, builder, createZone, kvHeadKeys, kvZoneKeys, post, settle, tweak } from './helpers.ts'

type Event =
  | { kind: 'put'; key: string; value: string; at: number }
  | { kind: 'delete'; key: string; at: number }
  | { kind: 'read'; at: number }
  | { kind: 'append'; entries: FeedAppend[]; at: number }
  | { kind: 'invocation' }

interface Recorder {
  events: Event[]
  /** Append calls (1-based) that fail. */
  failAppends: Set<number>
  appends: number
  clock: number
}

function recordingKv(kv: KVNamespace, r: Recorder): KVNamespace {
  return {
    get: (...args: unknown[]) => {
      r.events.push({ kind: 'read', at: r.clock })
      return (kv.get as (...a: unknown[]) => unknown)(...args)
    },
    getWithMetadata: kv.getWithMetadata.bind(kv),
    list: (opts?: KVNamespaceListOptions) => {
      r.events.push({ kind: 'read', at: r.clock })
      return kv.list(opts)
    },
    put: async (key: string, value: string, opts?: KVNamespacePutOptions) => {
      r.events.push({ kind: 'put', key, value, at: r.clock })
      return kv.put(key, value, opts)
    },
    delete: async (key: string) => {
      r.events.push({ kind: 'delete', key, at: r.clock })
      return kv.delete(key)
    },
  } as unknown as KVNamespace
}

function recordingFeed(r: Recorder): FeedAppender {
  return {
    async append(entries) {
      r.appends++
      if (r.failAppends.has(r.appends)) throw new Error(`injected feed failure ${r.appends}`)
      r.events.push({ kind: 'append', entries: structuredClone(entries), at: r.clock })
    },
  }
}

const GRACE = 60_000
const MAX_KV_OPS = 40

/** Every key head `text` names: the bucket version of each bucket, its overlay key and versions table. */
function namedKeys(zone: string, head: ZoneHead): string[] {
  const keys: string[] = []
  const B = head.meta.layout!.buckets
  for (let i = 0; i < B; i++)
    keys.push(
      head.bv
        ? bucketKey(zone, B, i, { id: head.meta.id, v: bucketVersion(head.bv, i) })
        : bucketKey(zone, B, i)
    )
  if (head.overlayKey) keys.push(head.overlayKey)
  if (head.versionsKey) keys.push(head.versionsKey)
  return keys
}

/** Runs one alarm invocation, marked in the recording. */
async function invocation(zoneId: string, r: Recorder): Promise<void> {
  r.events.push({ kind: 'invocation' })
  await runDurableObjectAlarm(builder(zoneId))
}

describe('the builder and the zone-change feed', () => {
  it('writes bucket keys once, names only keys already in KV, retires after the grace period within budget, retries failed appends, and announces a purge first', async () => {
    const z = await createZone('feed')
    await settle(z.id)
    const r: Recorder = { events: [], failAppends: new Set([1, 3]), appends: 0, clock: Date.now() }
    // What KV already holds (the zone's first build) starts the recording.
    for (const key of [...(await kvZoneKeys(z.name)), ...(await kvHeadKeys(z.name))])
      r.events.push({ kind: 'put', key, value: (await env.ZONES_KV.get(key, 'text'))!, at: 0 })
    await tweak(z.id, (b) => {
      b.io = { ...b.io, kv: recordingKv(b.io.kv, r), feed: recordingFeed(r), now: () => r.clock }
      b.limits = {
        ...b.limits,
        retireGraceMs: GRACE,
        maxKvOps: MAX_KV_OPS,
        keyWriteIntervalMs: 0,
        backoffBaseMs: 1000,
      }
    })
    const many = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        type: 'A',
        name: `${prefix}${i}`,
        content: '192.0.2.1',
      }))

    // A pass whose append fails (call 1): the head is built all the same, the entry stays pending.
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: many('a', 40) })
    let s = await settle(z.id)
    expect(s.feedPending).toMatchObject({ zone: z.name, id: z.id, n: s.head.n, op: 'head' })
    // Saved with the builder's state without the head's text.
    expect(s.feedPending).not.toHaveProperty('head')
    // Not retried before its backoff; then retried by the next step (call 2 succeeds).
    await invocation(z.id, r)
    expect(r.appends).toBe(1)
    expect((await builder(z.id).status()).feedPending).not.toBeNull()
    r.clock += 1000
    await invocation(z.id, r)
    const retried = await builder(z.id).status()
    expect(retried.feedPending).toBeNull()
    const appended = () => r.events.flatMap((e) => (e.kind === 'append' ? e.entries : []))
    expect(appended().at(-1)).toMatchObject({ n: retried.head.n, op: 'head' })

    // More passes (flushes in between); call 3 fails, the next head replaces the pending entry.
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: many('b', 40) })
    await settle(z.id)
    await post(z.id, { type: 'TXT', name: 'a3', content: 'changed' })
    s = await settle(z.id)
    expect(s.feedPending).toMatchObject({ n: s.head.n })
    r.clock += 2000
    await invocation(z.id, r)
    expect((await builder(z.id).status()).feedPending).toBeNull()

    // A full build, then passes that supersede its bucket versions.
    await api('POST', `/zones/${z.id}/propagation/rebuild`)
    await settle(z.id)
    for (let k = 0; k < 3; k++) {
      await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: many(`c${k}-`, 30) })
      await settle(z.id)
    }
    await post(z.id, { type: 'A', name: 'last', content: '192.0.2.9' })
    s = await settle(z.id)
    expect(s.retiredKeys).toBeGreaterThan(MAX_KV_OPS)
    // Every head written reached the feed: the newest one is the last entry.
    expect(s.feedPending).toBeNull()
    expect(appended().at(-1)).toMatchObject({ zone: z.name, id: z.id, n: s.head.n, op: 'head' })

    // Nothing is deleted before the grace period; after it, each invocation stays in budget.
    await invocation(z.id, r)
    r.clock += GRACE
    const retireFrom = r.events.length
    for (let k = 0; k < 20 && (await builder(z.id).status()).retiredKeys > 0; k++)
      await invocation(z.id, r)
    expect((await builder(z.id).status()).retiredKeys).toBe(0)

    // The zone goes: the feed hears of it before any key is deleted.
    const lastHead = (await builder(z.id).status()).head.n
    const purgeFrom = r.events.length
    expect((await api('DELETE', `/zones/${z.id}`)).status).toBe(200)
    s = await settle(z.id)
    expect(s.deleted).toBe(true)

    // (a) A bucket, versioned head or overlay key is never written twice with different content.
    const first = new Map<string, string>()
    for (const e of r.events) {
      if (e.kind !== 'put' || !/^(b:|o:|h:[^:]+:v:)/.test(e.key)) continue
      expect([e.key, first.get(e.key) ?? e.value]).toEqual([e.key, e.value])
      first.set(e.key, e.value)
    }
    expect([...first.keys()].some((k) => k.startsWith('b:'))).toBe(true)

    // (b) Every key an entry names was written before it, and not deleted since.
    const present = new Map<string, string>()
    let heads = 0
    let carried = 0
    for (const e of r.events) {
      if (e.kind === 'put') present.set(e.key, e.value)
      else if (e.kind === 'delete') present.delete(e.key)
      else if (e.kind === 'append')
        for (const entry of e.entries) {
          if (entry.op !== 'head') continue
          heads++
          const text = present.get(headVersionKey(z.name, z.id, entry.n))
          expect(text, `head ${entry.n} in KV before its entry`).toBeDefined()
          // A head the entry carries is the very text in KV.
          if (entry.head !== undefined) {
            carried++
            expect(entry.head).toBe(text)
          }
          for (const key of namedKeys(z.name, decodeHead(text!)))
            expect(present.has(key), `${key} in KV before head ${entry.n}'s entry`).toBe(true)
        }
    }
    expect(heads).toBeGreaterThanOrEqual(8)
    // Small heads ride their entries (this zone's heads are all small).
    expect(carried).toBeGreaterThanOrEqual(heads - 2)

    // (c) Bucket keys deleted before the purge were superseded at least the grace period before,
    // and no invocation used more KV operations than its budget.
    const before = r.events.slice(0, purgeFrom)
    const deletes = before.filter((e) => e.kind === 'delete' && e.key.startsWith('b:'))
    expect(deletes.length).toBeGreaterThan(MAX_KV_OPS)
    const replay = new Map<string, number>()
    const named2 = new Set<string>()
    for (const e of before) {
      if (e.kind === 'put' && e.key.includes(':v:')) {
        const keys = new Set(namedKeys(z.name, decodeHead(e.value)))
        for (const key of named2) if (!keys.has(key) && !replay.has(key)) replay.set(key, e.at)
        for (const key of keys) named2.add(key)
      }
      if (e.kind === 'delete' && e.key.startsWith('b:')) {
        const at = replay.get(e.key)
        expect(at, `${e.key} superseded before its delete`).toBeDefined()
        expect(e.at - at!).toBeGreaterThanOrEqual(GRACE)
      }
    }
    let ops = 0
    for (const e of r.events.slice(retireFrom, purgeFrom)) {
      if (e.kind === 'invocation') ops = 0
      else if (e.kind !== 'append') ops++
      expect(ops).toBeLessThanOrEqual(MAX_KV_OPS)
    }

    // (d) Failed appends (calls 1 and 3) were retried: the feed has the final head.
    expect(r.appends).toBeGreaterThan(appended().length)

    // (e) The purge appended `delete` (naming the last head) before its first delete.
    const purge = r.events.slice(purgeFrom)
    const announced = purge.findIndex(
      (e) => e.kind === 'append' && e.entries.some((x) => x.op === 'delete')
    )
    const firstDelete = purge.findIndex((e) => e.kind === 'delete')
    expect(announced).toBeGreaterThanOrEqual(0)
    expect(firstDelete).toBeGreaterThan(announced)
    expect((purge[announced] as { entries: FeedAppend[] }).entries).toEqual([
      { zone: z.name, id: z.id, n: lastHead, op: 'delete' },
    ])
  }, 60_000)
})
