import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { FeedRing, ZoneIndex, type FeedAppend, type PollReply } from '@edgedns/zone-feed'
import { primaryFeed } from './zone-feed.ts'
import type { ZoneFeedReplica } from './zone-feed-replica.ts'

let counter = 0
const unique = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${counter++}.test`
const head = (zone: string, n: number): FeedAppend => ({ zone, id: `id-${zone}`, n, op: 'head' })

function replica(name = unique('replica')): DurableObjectStub<ZoneFeedReplica> {
  return env.ZONE_FEED_REPLICA.get(env.ZONE_FEED_REPLICA.idFromName(`replica:test:${name}`))
}

const mine = (r: PollReply, zones: string[]) =>
  r.entries.filter((e) => zones.includes(e.zone)).map((e) => `${e.zone}:${e.n}`)

describe('ZoneFeed and ZoneFeedReplica', () => {
  it('serves an append to a poll through a replica', async () => {
    const primary = primaryFeed(env)
    const a = unique('a')
    const b = unique('b')
    await primary.append([head(a, 1)])
    const r = replica()
    const first = await r.poll({ cursor: null, epoch: null })
    expect(first.resync).toBe(true)
    expect(mine(first, [a])).toEqual([`${a}:1`])
    await primary.append([head(a, 2), head(b, 1)])
    // Appending again changes nothing (idempotent).
    await primary.append([head(b, 1)])
    const next = await r.poll({ cursor: first.seq, epoch: first.epoch })
    expect(next.resync).toBe(false)
    expect(mine(next, [a, b])).toEqual([`${a}:2`, `${b}:1`])
    expect((await r.poll({ cursor: next.seq, epoch: next.epoch })).entries).toEqual([])
  })

  it('answers from a replica pull at most max age old, one pull shared by concurrent polls', async () => {
    const primary = primaryFeed(env)
    const r = replica()
    let clock = 1_000
    await runInDurableObject(r, (instance: ZoneFeedReplica) => {
      // The primary's stub is made inside the replica (an I/O object belongs to its context).
      const source = primaryFeed(env)
      instance.ring = new FeedRing(
        { tail: (q) => source.tailAfter(q), poll: (q) => source.poll(q) },
        { maxAgeMs: 200, now: () => clock }
      )
    })
    const pulls = () => runInDurableObject(r, (instance: ZoneFeedReplica) => instance.ring.pulls)
    const start = await primary.poll({ cursor: null, epoch: null })
    await r.poll({ cursor: start.seq, epoch: start.epoch })
    expect(await pulls()).toBe(1)
    const z = unique('aged')
    await primary.append([head(z, 1)])
    clock += 150
    const young = await r.poll({ cursor: start.seq, epoch: start.epoch })
    expect(mine(young, [z])).toEqual([])
    expect(await pulls()).toBe(1)
    clock += 100
    const [p1, p2] = await Promise.all([
      r.poll({ cursor: start.seq, epoch: start.epoch }),
      r.poll({ cursor: start.seq, epoch: start.epoch }),
    ])
    expect(await pulls()).toBe(2)
    expect(mine(p1, [z])).toEqual([`${z}:1`])
    expect(mine(p2, [z])).toEqual([`${z}:1`])
  })

  it('forwards a cursor older than the replica ring to the primary', async () => {
    const primary = primaryFeed(env)
    const z = unique('old')
    const before = await primary.poll({ cursor: null, epoch: null })
    await primary.append([head(z, 1)])
    // A new replica's ring starts at the primary's current sequence: `before.seq` is older.
    const r = replica()
    const reply = await r.poll({ cursor: before.seq, epoch: before.epoch })
    expect(reply.resync).toBe(false)
    expect(mine(reply, [z])).toEqual([`${z}:1`])
    expect(
      await runInDurableObject(r, (instance: ZoneFeedReplica) => instance.ring.forwarded)
    ).toBe(1)
  })

  it('compiles the index in its alarm, writes ix:<version> to KV, then announces it', async () => {
    const primary = primaryFeed(env)
    const z = unique('indexed')
    await primary.append([head(z, 1)])
    // The first index is due as soon as a zone is served (later ones after 60 s or 1,000 deltas).
    let reply = await primary.poll({ cursor: null, epoch: null })
    for (let i = 0; i < 5 && reply.index === null; i++) {
      await runDurableObjectAlarm(primary)
      reply = await primary.poll({ cursor: null, epoch: null })
    }
    expect(reply.index).not.toBeNull()
    expect(reply.index!.key).toMatch(/^ix:\d+$/)
    expect(reply.index!.seq).toBeGreaterThan(0)
    const bytes = await env.ZONES_KV.get(reply.index!.key, 'arrayBuffer')
    expect(bytes).not.toBeNull()
    const index = ZoneIndex.decode(new Uint8Array(bytes!))
    expect(index.has(z)).toBe(true)
    expect(index.size).toBe(reply.index!.zones)
  })

  it('holds a watch until the next append, and ends an idle one after its wait', async () => {
    const primary = primaryFeed(env)
    const z = unique('watched')
    const now = await primary.poll({ cursor: null, epoch: null })
    const watch = primary.poll({ cursor: now.seq, epoch: now.epoch, waitMs: 4000 })
    const started = Date.now()
    await new Promise((r) => setTimeout(r, 50))
    await primary.append([head(z, 1)])
    const reply = await watch
    expect(mine(reply, [z])).toEqual([`${z}:1`])
    expect(Date.now() - started).toBeLessThan(2000)
    // It says how long it held the watch: the isolate's confirmation reaches that far.
    expect(reply.heldMs).toBeGreaterThanOrEqual(40)
    expect(reply.heldMs).toBeLessThanOrEqual(Date.now() - started)
    // Nothing arrives: the watch answers empty after its wait.
    const idle = Date.now()
    const quiet = await primary.poll({ cursor: reply.seq, epoch: reply.epoch, waitMs: 100 })
    expect(quiet.entries).toEqual([])
    expect(Date.now() - idle).toBeGreaterThanOrEqual(90)
  })

  it('wakes a watch with an offered head, which moves no cursor and never reaches a plain poll', async () => {
    // An instance of its own: whether it was watched depends on this test alone.
    const primary = env.ZONE_FEED.get(env.ZONE_FEED.idFromName(unique('offers')))
    const z = unique('offered')
    expect(await primary.append([head(z, 1)])).toEqual({ watched: false })
    const now = await primary.poll({ cursor: null, epoch: null })
    const watch = primary.poll({ cursor: now.seq, epoch: now.epoch, waitMs: 4000 })
    const started = Date.now()
    await new Promise((r) => setTimeout(r, 50))
    const offered = { zone: z, id: `id-${z}`, n: 2, head: 'head text' }
    await primary.offer([offered])
    const reply = await watch
    expect(Date.now() - started).toBeLessThan(2000)
    expect(reply.offered).toEqual([offered])
    expect(reply.entries).toEqual([])
    expect(reply.seq).toBe(now.seq)
    // A plain poll, and a watch that starts after the offer, do not carry it.
    const plain = await primary.poll({ cursor: now.seq, epoch: now.epoch })
    expect(plain.offered).toBeUndefined()
    const later = primary.poll({ cursor: now.seq, epoch: now.epoch, waitMs: 4000 })
    await new Promise((r) => setTimeout(r, 20))
    // The primary was watched: builders hear so from their appends.
    expect(await primary.append([head(z, 2)])).toEqual({ watched: true })
    const next = await later
    expect(next.offered).toBeUndefined()
    expect(mine(next, [z])).toEqual([`${z}:2`])
  })

  it('refuses a malformed offer', async () => {
    const primary = primaryFeed(env)
    for (const heads of [[], [{ zone: 'a.test', id: 'x', n: 1 }], 'nope']) {
      const error = await primary.offer(heads as never).then(
        () => null,
        (e: unknown) => e
      )
      expect(String(error)).toMatch(/offer/)
    }
  })

  it('refuses a malformed append', async () => {
    const error = await primaryFeed(env)
      .append([{ zone: 'Upper.Test', id: 'x', n: 1, op: 'head' }])
      .then(
        () => null,
        (e: unknown) => e
      )
    expect(String(error)).toMatch(/normalised name/)
  })
})
