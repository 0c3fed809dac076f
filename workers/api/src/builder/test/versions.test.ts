/**
 * @module Bucket versions: a bucket written since the last head is not written again under the
 * same version, even when its names change before the next head goes out.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  bucketKey,
  bucketOf,
  bucketVersion,
  decodeHead,
  encodeNode,
  headVersionKey,
  type NodeData,
} from '@edgedns/kv-layout'
import type { StepContext } from '../context.ts'
import { KvBudget } from '../io.ts'
import { limitsFrom } from '../limits.ts'
import { digestOf, KeyLedger } from '../ledger.ts'
import { NodeMirror } from '../mirror.ts'
import { flushBuckets } from '../per-record.ts'
import { StateStore } from '../state.ts'
import { VersionStore } from '../versions.ts'
import type { ZoneBuilder } from '../zone-builder.ts'
import { builder, countingKv, createZone, kvMeta, newCounts, settle } from './helpers.ts'

const node = (address: string): string =>
  encodeNode({ v: 1, sets: { A: { ttl: 300, rdata: [address] } } } as NodeData)

describe('bucket versions', () => {
  it('digests values as the ledgers already written hold them (a new digest would rewrite every key once)', () => {
    expect(digestOf('')).toBe('1aggevgbi2j.1247s7v64qa.0')
    expect(digestOf('a')).toBe('bmnxinv5js.16ayds5vhae.1')
    expect(digestOf('hello world')).toBe('ek12uvopgz.29qic38f3sh.b')
  })
  it('keeps keys no head reaches ten minutes by default, or as long as BUILDER_RETIRE_GRACE_MS says', () => {
    expect(limitsFrom({}).retireGraceMs).toBe(600_000)
    expect(limitsFrom({ BUILDER_RETIRE_GRACE_MS: '65000' }).retireGraceMs).toBe(65_000)
    expect(limitsFrom({ BUILDER_RETIRE_GRACE_MS: 'x' }).retireGraceMs).toBe(600_000)
  })

  it('does not write a bucket again at the version it was written at when its names change before the next head', async () => {
    const z = await createZone('versions')
    await settle(z.id)
    const B = (await kvMeta(z.name))!.layout!.buckets
    const name = `x.${z.name}`
    const i = bucketOf(name, B)
    const counts = newCounts()
    await runInDurableObject(builder(z.id), async (instance: ZoneBuilder, state) => {
      const store = new StateStore(state.storage.kv)
      const s = store.load()
      const ctx: StepContext = {
        io: { ...instance.io, kv: countingKv(instance.io.kv, counts) },
        ledger: new KeyLedger(state.storage.sql),
        mirror: new NodeMirror(state.storage.sql),
        versions: new VersionStore(state.storage.sql),
        budget: new KvBudget(1000),
        limits: instance.limits,
        state: s,
        save: () => store.save(s),
      }
      const v = s.head.n + 1
      ctx.mirror.setMany([[name, node('192.0.2.1')]])
      ctx.mirror.markDirty([i])
      await flushBuckets(ctx)
      expect(counts.puts).toEqual([bucketKey(z.name, B, i, { id: z.id, v: v })])
      // The name changes again, and no head has named version v yet (a pass whose head waits).
      ctx.mirror.setMany([[name, node('192.0.2.2')]])
      ctx.mirror.markDirty([i])
      await flushBuckets(ctx)
      // Instead of a second write of version v: a head naming v, then version v + 1.
      expect(
        counts.puts.filter((k) => k === bucketKey(z.name, B, i, { id: z.id, v: v }))
      ).toHaveLength(1)
      expect(s.head.n).toBe(v)
      const head = decodeHead((await env.ZONES_KV.get(headVersionKey(z.name, z.id, v), 'text'))!)
      expect(bucketVersion(head.bv!, i)).toBe(v)
      await flushBuckets(ctx)
      expect(counts.puts.at(-1)).toBe(bucketKey(z.name, B, i, { id: z.id, v: v + 1 }))
      expect(await env.ZONES_KV.get(bucketKey(z.name, B, i, { id: z.id, v: v }), 'text')).toContain(
        '192.0.2.1'
      )
      expect(
        await env.ZONES_KV.get(bucketKey(z.name, B, i, { id: z.id, v: v + 1 }), 'text')
      ).toContain('192.0.2.2')
      expect(ctx.mirror.dirtyCount()).toBe(0)
    })
  })
})
