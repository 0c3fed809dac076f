/**
 * @module Full builds: repair on demand, racing per-record changes, per-key write pacing, and
 * zone names reused after a delete.
 */
import {
  createExecutionContext,
  createScheduledController,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import worker from '../../index.ts'
import type { BuilderState, FullProgress } from '../state.ts'
import type { ZoneBuilder } from '../zone-builder.ts'
import {
  bucketKey,
  bucketOf,
  decodeHead,
  decodeZoneMeta,
  HEAD_SLOTS,
  headCounter,
  headKey,
  headKeys,
  headZoneId,
  zoneKey,
  type ZoneHead,
} from '@edgedns/kv-layout'
import { zoneEntries } from '../../../../../test/doh/helpers/seed.ts'
import {
  api,
  builder,
  converge,
  countingKv,
  createZone,
  kvMeta,
  kvNames,
  kvNode,
  kvBuckets,
  kvZoneKeys,
  newCounts,
  post,
  prng,
  settle,
  sleep,
  tweak,
  unversioned,
} from './helpers.ts'

type FullPhaseMs = NonNullable<FullProgress['phaseMs']>

const DEFAULT_ACCOUNT = 'a0000000000000000000000000000001'

describe('full builds', () => {
  it('the convergence check sees tampering, and a rebuild request repairs it', async () => {
    const z = await createZone('full')
    const a = await post(z.id, { type: 'A', name: 'a.x', content: '192.0.2.1' })
    await post(z.id, { type: 'TXT', name: 'b', content: 'keep' })
    await settle(z.id)
    const B = (await kvMeta(z.name))!.layout!.buckets
    const current = await kvBuckets(z.name)
    const keyOf = (n: string) => current.get(bucketOf(`${n}.${z.name}`, B))!
    const other = B === 16 ? 256 : 16
    // A bucket of a dead bucket count, a lost bucket (every version of it), a corrupted bucket.
    await env.ZONES_KV.put(bucketKey(z.name, other, 3), '{"v":2,"nodes":{}}')
    for (const key of await kvZoneKeys(z.name))
      if (unversioned(key) === unversioned(keyOf('x'))) await env.ZONES_KV.delete(key)
    const expected: string[][] = [
      ['missing', unversioned(keyOf('x'))],
      ['stale', bucketKey(z.name, other, 3)],
    ]
    if (unversioned(keyOf('b')) !== unversioned(keyOf('x'))) {
      await env.ZONES_KV.put(
        keyOf('b'),
        `{"v":2,"nodes":{"b.${z.name}":{"v":1,"sets":{"TXT":{"ttl":300,"rdata":["\\"old\\""]}}}}}`
      )
      expected.push(['different', unversioned(keyOf('b'))])
    }
    const before = await converge(z.id)
    expect(before.differences.map((d) => [d.kind, unversioned(d.key)]).sort()).toEqual(
      expected.sort()
    )
    const check = await api('GET', `/zones/${z.id}/propagation/check`)
    expect(check.body.result).toMatchObject({ converged: false, difference_count: expected.length })

    const res = await api('POST', `/zones/${z.id}/propagation/rebuild`)
    expect(res.status).toBe(200)
    expect(res.body.result.seq).toBe(4)
    expect(res.headers.get('x-edgedns-change-seq')).toBe('4')
    const status = await settle(z.id)
    expect(status.cursor).toBe(4)
    expect(status.lastFullBuild).toMatchObject({ startSeq: 4 })
    // the stale key; the versions the previous head named wait out their grace period
    expect(status.lastFullBuild!.keysDeleted).toBe(1)
    expect(status.retiredKeys).toBeGreaterThanOrEqual(B - 1)
    expect(await kvZoneKeys(z.name)).not.toContain(bucketKey(z.name, other, 3))
    expect((await converge(z.id)).differences).toEqual([])
    expect(await kvNames(z.name)).toEqual([`a.x.${z.name}`, `b.${z.name}`, `x.${z.name}`])
    // Record writes after the rebuild still go through (the version guard moved, batches re-plan).
    expect((await api('DELETE', `/zones/${z.id}/dns_records/${a.id}`)).status).toBe(200)
    await settle(z.id)
    expect(await kvNames(z.name)).toEqual([`b.${z.name}`])
  })

  it('leaves in KV the buckets zoneImage makes of the zone, the image the DoH tests seed', async () => {
    const z = await createZone('image')
    const text = [
      '@ 300 IN MX 10 mail',
      'www 300 IN A 192.0.2.1',
      'www 300 IN A 192.0.2.2',
      'www 300 IN AAAA 2001:db8::1',
      'mail 300 IN A 192.0.2.25',
      'alias 300 IN CNAME www',
      'deep.a.b 300 IN A 192.0.2.9',
    ].join('\n')
    const form = new FormData()
    form.set('file', new Blob([text]), 'zone.txt')
    const imported = await (exports as any).default.fetch(
      `http://localhost/client/v4/zones/${z.id}/dns_records/import`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token' },
        body: form,
      }
    )
    expect(((await imported.json()) as any).result.recs_added).toBe(7)
    await settle(z.id)
    expect((await api('POST', `/zones/${z.id}/propagation/rebuild`)).status).toBe(200)
    await settle(z.id)
    const meta = (await kvMeta(z.name))!
    const image = zoneEntries(z.name, text, { buckets: meta.layout!.buckets })
    const built = new Map<string, string | null>()
    for (const key of (await kvBuckets(z.name)).values())
      built.set(unversioned(key), await env.ZONES_KV.get(key, 'text'))
    expect(built).toEqual(new Map([...image].filter(([key]) => key.startsWith('b:'))))
    // The apex travels in the zone key, with the NS set the builder adds from the zone's name servers.
    expect(meta.apex.sets.MX).toEqual(decodeZoneMeta(image.get(zoneKey(z.name))!).apex.sets.MX)
  })

  it('a full build racing per-record changes never leaves stale data', async () => {
    const z = await createZone('race')
    const rand = prng(4242)
    const names = (i: number) => `n${i}.g${i % 7}`
    const created = await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: Array.from({ length: 120 }, (_, i) => ({
        type: 'A',
        name: names(i),
        content: `192.0.2.${(i % 250) + 1}`,
      })),
    })
    const live: { id: string; name: string }[] = created.body.result.posts.map((r: any) => ({
      id: r.id,
      name: r.name,
    }))
    await settle(z.id)
    const liveCount = (await kvMeta(z.name))!.layout!.buckets
    const deadBucket = bucketKey(z.name, liveCount === 16 ? 256 : 16, 3)
    await env.ZONES_KV.put(deadBucket, '{"v":2,"nodes":{}}')
    await tweak(
      z.id,
      (b) =>
        (b.limits = {
          ...b.limits,
          maxKvOps: 12,
          mirrorPageNames: 4,
          listPage: 10,
          backoffBaseMs: 60_000,
        })
    )
    const cursorBefore = (await builder(z.id).status()).cursor

    const rebuild = await api('POST', `/zones/${z.id}/propagation/rebuild`)
    expect(rebuild.status).toBe(200)
    let sawFullInProgress = 0
    let next = 1000
    for (let round = 0; round < 60; round++) {
      const status = await builder(z.id).status()
      if (status.full) {
        sawFullInProgress++
        // No per-record pass runs while the full build is pending.
        expect(status.cursor).toBe(cursorBefore)
      } else if (round > 5 && !status.fullRequested) break
      const pick = Math.floor(rand() * live.length)
      const victim = live[pick]!
      const roll = rand()
      if (roll < 0.35) {
        const name = `r${next++}.g${Math.floor(rand() * 9)}`
        const res = await api('PATCH', `/zones/${z.id}/dns_records/${victim.id}`, { name })
        if (res.status === 200) victim.name = res.body.result.name
      } else if (roll < 0.6) {
        if ((await api('DELETE', `/zones/${z.id}/dns_records/${victim.id}`)).status === 200)
          live.splice(pick, 1)
      } else {
        const r = await post(z.id, {
          type: 'TXT',
          name: `c${next++}.g${Math.floor(rand() * 9)}.deep`,
          content: 'x',
        })
        live.push({ id: r.id, name: r.name })
      }
      await runDurableObjectAlarm(builder(z.id))
    }
    expect(sawFullInProgress).toBeGreaterThan(3)
    const status = await settle(z.id)
    expect(status.lastFullBuild!.startSeq).toBeGreaterThanOrEqual(rebuild.body.result.seq)
    expect(status.lastFullBuild!.keysDeleted).toBeGreaterThanOrEqual(1)
    expect(await env.ZONES_KV.get(deadBucket)).toBeNull()
    const report = await converge(z.id)
    expect(report.differences).toEqual([])
    expect(report.expectedKeys).toBe((await kvBuckets(z.name)).size + 1)
  }, 20_000) // dozens of API calls and builder invocations: over 5 s on a loaded machine

  it('writes each bucket version once under a key of its own, without waiting for a key interval, while head slots rotate', async () => {
    const z = await createZone('pace')
    await settle(z.id)
    const clock = Date.now()
    const counts = newCounts()
    await tweak(z.id, (b) => {
      b.io = { ...b.io, kv: countingKv(b.io.kv, counts), now: () => clock }
      // No yield after heads (local settings have one): the step schedules its alarm at once.
      b.limits = { ...b.limits, keyWriteIntervalMs: 1000, yieldAfterHeadMs: 0 }
    })
    const B = (await kvMeta(z.name))!.layout!.buckets
    const key = bucketKey(z.name, B, bucketOf(`hot.${z.name}`, B))
    const bucketPuts = () => counts.puts.filter((k) => unversioned(k) === key)
    const rec = await post(z.id, { type: 'A', name: 'hot', content: '192.0.2.1' })
    // The full build wrote the bucket less than an interval ago: its new version goes at once.
    await cursorAt(z.id, 2)
    expect(overlayA(await newestHead(z.name), `hot.${z.name}`)).toEqual(['192.0.2.1'])
    await settle(z.id)
    expect(bucketPuts()).toHaveLength(1)

    await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { content: '192.0.2.2' })
    await cursorAt(z.id, 3) // its own pass, so the next change needs a second head
    await api('PATCH', `/zones/${z.id}/dns_records/${rec.id}`, { content: '192.0.2.3' })
    await cursorAt(z.id, 4)
    expect(overlayA(await newestHead(z.name), `hot.${z.name}`)).toEqual(['192.0.2.3'])
    // Three passes, three different head slots: none waited for another (the clock stood still).
    expect(
      new Set(counts.puts.filter((k) => k.startsWith(`h:${z.name}:`) && !k.includes(':v:'))).size
    ).toBe(3)
    await settle(z.id)
    expect((await kvNode(z.name, `hot.${z.name}`))!.sets.A!.rdata).toEqual(['192.0.2.3'])
    // Every version under a key of its own, written once.
    expect(new Set(bucketPuts()).size).toBe(bucketPuts().length)
    expect(bucketPuts().length).toBeGreaterThanOrEqual(2)
  })

  it("a new zone's first build deletes no head slot, so its first heads are never held back", async () => {
    const z = await createZone('first-heads')
    const status = await settle(z.id)
    expect(status.lastFullBuild!.keysDeleted).toBe(0)
    expect(headCounter(await newestHead(z.name, 'text'))).toBe(1)
    // The first change's head follows at once in the next slot.
    await post(z.id, { type: 'A', name: 'a', content: '192.0.2.1' })
    await settle(z.id)
    expect(headCounter(await newestHead(z.name, 'text'))).toBe(2)
  })

  it("a zone name reused after a delete ends up with only the new zone's data", async () => {
    const old = await createZone('reuse')
    await post(old.id, { type: 'A', name: 'only-old', content: '192.0.2.1' })
    await settle(old.id)
    // The old zone's heads fill every slot, as after its first laps.
    const oldHead = await newestHead(old.name, 'text')
    for (let slot = 0; slot < HEAD_SLOTS; slot++)
      await env.ZONES_KV.put(headKey(old.name, slot), oldHead.replace(/^\d+/, String(16 + slot)))
    // Deleted without a notification, so the old builder purges late (after the new zone is built).
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO change_log (zone_id, seq, op, created_on) VALUES (?1, 3, 'zone_delete', ?2)"
      ).bind(old.id, new Date().toISOString()),
      env.DB.prepare('DELETE FROM dns_records WHERE zone_id = ?1').bind(old.id),
      env.DB.prepare('DELETE FROM zones WHERE id = ?1').bind(old.id),
      // What a delete does to the shard directory: the name is free again.
      env.DB.prepare(
        'UPDATE directory_zones SET name = NULL, name_rev = NULL WHERE zone_id = ?1'
      ).bind(old.id),
    ])
    const created = await api('POST', '/zones', {
      name: old.name,
      account: { id: DEFAULT_ACCOUNT },
    })
    expect(created.status).toBe(200)
    const fresh = { id: created.body.result.id as string, name: old.name }
    await post(fresh.id, { type: 'A', name: 'only-new', content: '192.0.2.2' })
    await settle(fresh.id)
    // The new zone's full build already removed the old zone's leftover key, and its first head
    // cleared the slots the old zone's heads were in (readers of the old zone learn it is gone).
    expect(await kvNames(fresh.name)).toEqual([`only-new.${fresh.name}`])
    const slots = [...(await env.ZONES_KV.get(headKeys(fresh.name), 'text')).values()]
    expect(slots.filter((v) => v !== null).map((v) => headZoneId(v!))).toEqual(
      slots.filter((v) => v !== null).map(() => fresh.id)
    )
    expect((await newestHead(fresh.name)).meta.id).toBe(fresh.id)

    const ctx = createExecutionContext()
    await worker.scheduled!(createScheduledController(), env as unknown as Env, ctx)
    await waitOnExecutionContext(ctx)
    expect((await settle(old.id)).deleted).toBe(true)
    await settle(fresh.id)
    expect(await kvNames(fresh.name)).toEqual([`only-new.${fresh.name}`])
    expect((await converge(fresh.id)).differences).toEqual([])
  })
  it('hands a page that does not fit the remaining budget to the next invocation instead of spinning', async () => {
    // 45 operations per invocation and mirror pages of 10 names (2 operations each): after eight
    // pages 29 remain, fewer than a page wants left (30) but more than the step minimum (20), so
    // the step yields without spending. The builder used to loop without I/O there, starving the
    // isolate (the whole API stopped answering).
    const z = await createZone('budget')
    await settle(z.id)
    await tweak(z.id, (b) => {
      b.limits = { ...b.limits, maxKvOps: 45, mirrorPageNames: 10, listPage: 50 }
    })
    const posts = Array.from({ length: 100 }, (_, i) => ({
      type: 'A',
      name: `n${i}`,
      content: '192.0.2.1',
    }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    await settle(z.id)
    expect((await api('POST', `/zones/${z.id}/propagation/rebuild`)).status).toBe(200)
    const status = await settle(z.id)
    const buckets = await kvBuckets(z.name)
    expect(buckets.size).toBeGreaterThan(1)
    expect(status.lastFullBuild).toMatchObject({ keysWritten: buckets.size + 2 }) // + zone key + head
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a build paused mid-buckets and resumed after a deploy reports a number for every phase', async () => {
    const z = await createZone('phases')
    const posts = Array.from({ length: 60 }, (_, i) => ({
      type: 'A',
      name: `p${i}`,
      content: '192.0.2.1',
    }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    await settle(z.id)
    // A few buckets per invocation, so the build pauses in its bucket phase.
    await tweak(z.id, (b) => {
      b.limits = { ...b.limits, maxKvOps: 8 }
    })
    expect((await api('POST', `/zones/${z.id}/propagation/rebuild`)).status).toBe(200)
    // Between two steps of the bucket phase, the state becomes what the code before the deploy
    // stored: its last phase had another name, so there is no `prune` time.
    const stub = builder(z.id)
    let rewritten = false
    for (let i = 0; i < 200 && !rewritten; i++) {
      rewritten = await runInDurableObject(stub, (_instance: ZoneBuilder, state) => {
        const s = state.storage.kv.get<BuilderState>('state')!
        if (s.full?.phase !== 'buckets') return false
        const { write, buckets } = s.full.phaseMs!
        const phaseMs = { write, buckets, sweep: 0 } as unknown as FullPhaseMs
        state.storage.kv.put('state', { ...s, full: { ...s.full, phaseMs } })
        return true
      })
      if (!rewritten && !(await runDurableObjectAlarm(stub))) await sleep(2)
    }
    expect(rewritten).toBe(true)
    const status = await settle(z.id)
    const times = status.lastFullBuild!.phaseMs!
    expect(Object.keys(times).sort()).toEqual(['buckets', 'prune', 'write'])
    for (const ms of Object.values(times)) expect(Number.isFinite(ms)).toBe(true)
    expect((await converge(z.id)).differences).toEqual([])
  })
})

async function newestHead(zone: string): Promise<ZoneHead>
async function newestHead(zone: string, as: 'text'): Promise<string>
async function newestHead(zone: string, as?: 'text'): Promise<ZoneHead | string> {
  const values = await env.ZONES_KV.get(headKeys(zone), 'text')
  const texts = [...values.values()].filter((v): v is string => v !== null)
  texts.sort((a, b) => headCounter(b) - headCounter(a))
  return as === 'text' ? texts[0]! : decodeHead(texts[0]!)
}

function overlayA(head: ZoneHead, name: string): string[] | undefined {
  return head.overlay.get(name)?.sets.A?.rdata
}

/** The builder's status once its cursor reached `seq` (the notifications are asynchronous). */
async function cursorAt(zoneId: string, seq: number) {
  for (let i = 0; i < 500; i++) {
    const status = await builder(zoneId).status()
    if (status.cursor >= seq) {
      expect(status.cursor).toBe(seq)
      return status
    }
    await sleep(10)
  }
  throw new Error(`cursor of ${zoneId} did not reach ${seq}`)
}
