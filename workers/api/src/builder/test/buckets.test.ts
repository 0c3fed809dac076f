/**
 * @module Hash buckets: bucket rebuilds are idempotent, a bucket-count switch is atomic
 * through the meta key and retires the old generation, and no stale bucket survives.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  bucketKey,
  bucketOf,
  decodeHead,
  headKey,
  headSlot,
  headVersionKey,
} from '@edgedns/kv-layout'
import { NodeMirror } from '../mirror.ts'
import type { ZoneBuilder } from '../zone-builder.ts'
import {
  api,
  builder,
  converge,
  countingKv,
  createZone,
  kvBuckets,
  kvMeta,
  kvNames,
  kvNode,
  kvZoneKeys,
  newCounts,
  post,
  settle,
  sleep,
  tweak,
  unversioned,
} from './helpers.ts'

const posts = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({
    type: 'A',
    name: `${prefix}${i}.sub`,
    content: '192.0.2.1',
  }))

describe('hash buckets', () => {
  it('replaying the whole log rebuilds the same buckets: no KV write, still converged', async () => {
    const z = await createZone('idem')
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(200, 'i') })
    const r = await post(z.id, { type: 'TXT', name: 'x.sub', content: 'hello' })
    await api('DELETE', `/zones/${z.id}/dns_records/${r.id}`)
    await settle(z.id)
    const counts = newCounts()
    await tweak(z.id, (b) => (b.io = { ...b.io, kv: countingKv(b.io.kv, counts) }))
    // Rewind the cursor to just after the creation: every change is replayed, state-based.
    await runInDurableObject(builder(z.id), async (instance: ZoneBuilder, state) => {
      const s = state.storage.kv.get<any>('state')
      state.storage.kv.put('state', { ...s, cursor: 1 })
      void instance
    })
    await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'after',
      content: '192.0.2.7',
    })
    await settle(z.id)
    const B = (await kvMeta(z.name))!.layout!.buckets
    // Heads announce each replayed pass; no bucket but the new name's gets a new version.
    expect(counts.puts.filter((k) => k.startsWith('b:')).map(unversioned)).toEqual([
      bucketKey(z.name, B, bucketOf(`after.${z.name}`, B)),
    ])
    expect(counts.puts.filter((k) => !k.startsWith('b:') && !k.startsWith(`h:${z.name}:`))).toEqual(
      []
    )
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('deleting every name of a bucket leaves it written and empty, never missing; no stale name remains', async () => {
    const z = await createZone('stale')
    const a = await post(z.id, { type: 'A', name: 'lonely.deep.er', content: '192.0.2.1' })
    await settle(z.id)
    const B = (await kvMeta(z.name))!.layout!.buckets
    const names = ['lonely.deep.er', 'deep.er', 'er'].map((n) => `${n}.${z.name}`)
    const all = Array.from({ length: B }, (_, i) => i)
    expect([...(await kvBuckets(z.name)).keys()]).toEqual(all) // every bucket, empty ones included
    expect(await kvNames(z.name)).toEqual(names.sort()) // the name and its two ENTs
    expect(await kvNode(z.name, `deep.er.${z.name}`)).toEqual({ v: 1, sets: {} })
    await api('DELETE', `/zones/${z.id}/dns_records/${a.id}`)
    await settle(z.id)
    expect([...(await kvBuckets(z.name)).keys()]).toEqual(all)
    expect(await kvNames(z.name)).toEqual([])
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a larger zone switches bucket count through the meta key and retires the old generation after the grace period', async () => {
    const z = await createZone('grow')
    // Versions superseded by the passes below retire on the same grace period.
    await tweak(
      z.id,
      (b) => (b.limits = { ...b.limits, namesPerBucket: 64, retireGraceMs: 60_000 })
    )
    await settle(z.id)
    expect((await kvMeta(z.name))!.layout).toEqual({ buckets: 16 })
    for (let i = 0; i < 3; i++)
      await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(400, `g${i}-`) })
    await settle(z.id)
    // 1,200 names + 1 ENT: per-record passes keep 16 buckets (growth is a full build's job).
    expect((await kvMeta(z.name))!.layout).toEqual({ buckets: 16 })
    // Frozen ahead of real time: anything queued by the real clock before the freeze takes
    // effect is due before the grace period checked below ends.
    let clock = Date.now() + 5_000
    await tweak(z.id, (b) => {
      b.io = { ...b.io, now: () => clock }
      b.limits = { ...b.limits, namesPerBucket: 64, retireGraceMs: 60_000 }
    })
    const rebuild = await api('POST', `/zones/${z.id}/propagation/rebuild`)
    for (let i = 0; i < 50; i++) {
      const s = await builder(z.id).status()
      if (s.full === null && s.cursor >= rebuild.body.result.seq) break
      await builder(z.id).notify(z.id, 0)
    }
    const status = await builder(z.id).status()
    expect(status.full).toBeNull()
    expect(status.layout).toEqual({ buckets: 256, base: status.head.n })
    expect(status.retire).toMatchObject([{ buckets: 16, notBefore: clock + 60_000 }])
    // Readers are offered the old count as a fallback while it is retiring.
    expect((await kvMeta(z.name))!.layout).toEqual({ buckets: 256, prev: 16 })
    // During the grace period a reader holding the old meta still finds every name.
    const old = (await kvZoneKeys(z.name)).filter((k) => k.startsWith(`b:${z.name}:16:`))
    expect(new Set(old.map((k) => k.split(':')[3])).size).toBe(16)
    expect(await kvNode(z.name, `g1-5.sub.${z.name}`)).not.toBeNull()
    clock += 60_000
    await settle(z.id)
    const keys = await kvZoneKeys(z.name)
    expect(keys.filter((k) => !k.startsWith(`b:${z.name}:256:`))).toEqual([])
    expect((await kvMeta(z.name))!.layout).toEqual({ buckets: 256 })
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('moves a zone in layout format 3 to versioned keys with one full build, and deletes its unversioned buckets after the grace period', async () => {
    const z = await createZone('format3')
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(30, 'u') })
    await settle(z.id)
    const B = (await kvMeta(z.name))!.layout!.buckets
    // What the previous format left: unversioned buckets, a state without bucket versions.
    const current = await kvBuckets(z.name)
    for (const [i, key] of current)
      await env.ZONES_KV.put(bucketKey(z.name, B, i), (await env.ZONES_KV.get(key, 'text'))!)
    let clock = Date.now()
    await runInDurableObject(builder(z.id), async (instance: ZoneBuilder, state) => {
      const s = state.storage.kv.get<any>('state')
      state.storage.kv.put('state', { ...s, format: 3, layout: { buckets: B } })
      state.storage.sql.exec('DELETE FROM bucket_versions')
      state.storage.sql.exec('DELETE FROM bucket_writes')
      state.storage.sql.exec('DELETE FROM retired')
      instance.io = { ...instance.io, now: () => clock }
      instance.limits = { ...instance.limits, retireGraceMs: 60_000 }
    })
    await post(z.id, { type: 'A', name: 'after', content: '192.0.2.8' })
    const status = await settle(z.id)
    expect(status.format).toBe(4)
    expect(status.lastPass?.kind).toBe('full')
    expect(status.layout).toEqual({ buckets: B, base: status.head.n })
    const head = decodeHead(
      (await env.ZONES_KV.get(headVersionKey(z.name, z.id, status.head.n), 'text'))!
    )
    expect(head.bv).toEqual({ base: status.head.n, changed: new Map() })
    // Readers still holding a format-3 head read the unversioned keys during the grace period.
    const unversionedKeys = (await kvZoneKeys(z.name)).filter((k) => unversioned(k) === k)
    expect(unversionedKeys).toHaveLength(B)
    clock += 60_000
    await builder(z.id).notify(z.id, 0)
    expect((await kvZoneKeys(z.name)).filter((k) => unversioned(k) === k)).toEqual([])
    expect((await kvNode(z.name, `after.${z.name}`))?.sets.A?.rdata).toEqual(['192.0.2.8'])
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('keeps the mirror whole and indexed by hash across repeated full builds (the swap renames tables)', async () => {
    const z = await createZone('swaps')
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(50, 'w') })
    await settle(z.id)
    for (let i = 0; i < 3; i++) {
      const rebuild = await api('POST', `/zones/${z.id}/propagation/rebuild`)
      expect(rebuild.status).toBe(200)
      await settle(z.id)
      await api('POST', `/zones/${z.id}/dns_records`, {
        type: 'A',
        name: `after${i}`,
        content: '192.0.2.9',
      })
      await settle(z.id)
    }
    await runInDurableObject(builder(z.id), async (_instance: ZoneBuilder, state) => {
      const count = (t: string) =>
        state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${t}`).one().n
      expect(count('nodes')).toBe(50 + 1 + 3) // 50 names, their ENT "sub", 3 later names
      expect(count('nodes_next')).toBe(0)
      const plan = (sql: string) =>
        state.storage.sql
          .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
          .toArray()
          .map((r) => r.detail)
          .join(' ')
      expect(plan('SELECT name FROM nodes WHERE h >= 1 AND h < 2')).toMatch(
        /USING INDEX nodes\w*_h_/
      )
      expect(plan(`SELECT value FROM nodes WHERE name = 'x'`)).toMatch(/USING INDEX/)
      const indexes = state.storage.sql
        .exec<{ tbl_name: string; n: number }>(
          `SELECT tbl_name, count(*) AS n FROM sqlite_master WHERE type = 'index' GROUP BY tbl_name`
        )
        .toArray()
      expect(indexes.find((r) => r.tbl_name === 'nodes')?.n).toBe(2) // name (unique) and hash: no index piles up across swaps
      expect(indexes.find((r) => r.tbl_name === 'nodes_next')).toBeUndefined() // filled unindexed, indexed at the swap
    })
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('keeps the last row of a name a replayed full-build page appended twice', async () => {
    const z = await createZone('replay')
    await runInDurableObject(builder(z.id), async (_instance: ZoneBuilder, state) => {
      const mirror = new NodeMirror(state.storage.sql)
      mirror.resetNext()
      mirror.appendNext([
        ['a.example', 'old'],
        ['b.example', 'b'],
      ])
      mirror.appendNext([['a.example', 'new']])
      mirror.swapNext()
      expect(
        state.storage.sql
          .exec<{ name: string; value: string }>('SELECT name, value FROM nodes ORDER BY name')
          .toArray()
      ).toEqual([
        { name: 'a.example', value: 'new' },
        { name: 'b.example', value: 'b' },
      ])
      mirror.setMany([
        ['a.example', 'newer'],
        ['b.example', null],
        ['c.example', 'c'],
      ]) // upserts through the unique name index
      expect(
        state.storage.sql
          .exec<{ name: string; value: string }>('SELECT name, value FROM nodes ORDER BY name')
          .toArray()
      ).toEqual([
        { name: 'a.example', value: 'newer' },
        { name: 'c.example', value: 'c' },
      ])
    })
  })

  it('makes a large pass visible with one head write, then writes each bucket it touched once, over several invocations within the KV budget', async () => {
    const z = await createZone('flush')
    await settle(z.id)
    const counts = newCounts()
    await tweak(z.id, (b) => {
      b.io = { ...b.io, kv: countingKv(b.io.kv, counts) }
      b.limits = { ...b.limits, maxKvOps: 16 } // 6 buckets an invocation
    })
    const before = (await builder(z.id).status()).head.n
    const res = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(120, 'f') })
    expect(res.status).toBe(200)
    const seq = Number(res.headers.get('x-edgedns-change-seq'))
    let first = await builder(z.id).status()
    for (let i = 0; i < 200 && first.cursor < seq; i++)
      first = (await sleep(5), await builder(z.id).status())
    // The pass is visible once its head is written: cursor moved, one put, the head first.
    expect(first.cursor).toBeGreaterThanOrEqual(seq)
    expect(first.lastPass).toMatchObject({ kind: 'per-record', changes: 120, puts: 1 })
    expect(first.head.n).toBe(before + 1)
    const slot = headKey(z.name, headSlot(before + 1))
    expect(counts.puts.slice(0, 2).sort()).toEqual(
      [slot, headVersionKey(z.name, z.id, before + 1)].sort()
    )
    const names = [...posts(120, 'f').map((p) => `${p.name}.${z.name}`), `sub.${z.name}`]
    const head = decodeHead((await env.ZONES_KV.get(slot, 'text'))!)
    expect([...head.overlay.keys()].sort()).toEqual([...names].sort())
    const B = (await kvMeta(z.name))!.layout!.buckets
    const touched = new Set(names.map((n) => bucketOf(n, B)))
    expect(touched.size).toBeGreaterThan(6) // more buckets than one invocation may write
    const done = await settle(z.id)
    expect(done.head.n).toBe(before + 1) // no other head was needed
    expect(done.lastPass).toMatchObject({ kind: 'per-record', changes: 120 })
    // Every touched bucket written once, after the head, at the next head's counter; that head
    // names exactly them.
    const buckets = counts.puts.slice(2)
    expect(new Set(buckets).size).toBe(buckets.length)
    expect(new Set(buckets)).toEqual(
      new Set([...touched].map((i) => bucketKey(z.name, B, i, { id: z.id, v: before + 2 })))
    )
    expect([...done.headPending].sort((a, b) => a - b)).toEqual([...touched].sort((a, b) => a - b))
    expect((await kvNode(z.name, `f7.sub.${z.name}`))?.sets.A?.rdata).toEqual(['192.0.2.1'])
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('builds a backlog larger than a pass and a quarter of the zone with one full build, not many passes', async () => {
    const z = await createZone('backlog')
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(100, 'b') })
    await settle(z.id)
    await tweak(z.id, (b) => (b.limits = { ...b.limits, passNames: 20 }))
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(10, 's') })
    const afterSmall = await settle(z.id)
    expect(afterSmall.lastPass?.kind).toBe('per-record') // 10 changes: below one pass
    const fullsBefore = afterSmall.lastFullBuildAt
    const big = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(60, 'x') })
    expect(big.status).toBe(200)
    const status = await settle(z.id)
    expect(status.lastFullBuildAt).not.toBe(fullsBefore)
    expect(status.lastPass?.kind).toBe('full')
    expect((await converge(z.id)).differences).toEqual([])
  })

  it("builds a change notified while a pass's buckets are being written before the rest of them", async () => {
    const z = await createZone('preempt')
    await settle(z.id)
    // Slow bucket writes, two per slice: the flush of a 120-name pass takes well over a second.
    await tweak(z.id, (b) => {
      const kv = b.io.kv
      b.io = {
        ...b.io,
        kv: {
          get: kv.get.bind(kv),
          getWithMetadata: kv.getWithMetadata.bind(kv),
          list: kv.list.bind(kv),
          delete: kv.delete.bind(kv),
          put: async (key: string, value: string) => {
            if (key.startsWith('b:')) await sleep(150)
            return kv.put(key, value)
          },
        } as unknown as KVNamespace,
      }
      b.limits = { ...b.limits, flushSlice: 2 }
    })
    const big = await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: posts(120, 'p') })
    const bigSeq = Number(big.headers.get('x-edgedns-change-seq'))
    let s = await builder(z.id).status()
    for (let i = 0; i < 400 && s.cursor < bigSeq; i++)
      s = (await sleep(5), await builder(z.id).status())
    expect(s.dirtyBuckets).toBeGreaterThan(4)
    const one = await api('POST', `/zones/${z.id}/dns_records`, {
      type: 'A',
      name: 'late',
      content: '192.0.2.9',
    })
    const oneSeq = Number(one.headers.get('x-edgedns-change-seq'))
    for (let i = 0; i < 400 && s.cursor < oneSeq; i++)
      s = (await sleep(5), await builder(z.id).status())
    expect(s.cursor).toBeGreaterThanOrEqual(oneSeq)
    // Built while buckets of the first pass were still waiting to be written (the new name's
    // own bucket is one more at most).
    expect(s.dirtyBuckets).toBeGreaterThan(2)
    const done = await settle(z.id)
    expect(done.dirtyBuckets).toBe(0)
    expect((await converge(z.id)).differences).toEqual([])
  }, 30_000)
})
