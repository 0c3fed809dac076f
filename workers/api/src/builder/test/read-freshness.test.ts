/**
 * What the builder writes, read the way a warm DoH isolate reads it: every kind of change becomes
 * visible within the same bound (the builder's pass, then at most `revalidateMs`), and a name that
 * exists keeps answering while its zone moves to another bucket count.
 */
import { runDurableObjectAlarm } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { KvZoneView, type NodeData, type ZoneLookup } from '@edgedns/kv-layout'
import { api, builder, createZone, post, settle, sleep, tweak } from './helpers.ts'

const REVALIDATE_MS = 50

/** A warm isolate's view over the worker's KV, with its own clock. */
function isolate() {
  const clock = { now: Date.now() }
  const view = new KvZoneView(env.ZONES_KV, { revalidateMs: REVALIDATE_MS, now: () => clock.now })
  return { view, clock }
}

const rdata = (node: NodeData | undefined, type: string): string[] => node?.sets[type]?.rdata ?? []
const apexOf = (l: ZoneLookup | null) => l!.zone.apex
const nodeOf = (l: ZoneLookup | null, name: string) => l!.nodes.get(name)

describe('a warm reader sees every change within one bound', () => {
  it('apex A, MX and TXT, SOA values, NS TTL and a non-apex record: each visible after the pass plus revalidateMs, not before', async () => {
    const z = await createZone('fresh')
    await post(z.id, { type: 'A', name: 'www', content: '192.0.2.1' })
    await settle(z.id)
    const { view, clock } = isolate()
    const www = `www.${z.name}`
    expect(rdata(nodeOf(await view.lookup(www), www), 'A')).toEqual(['192.0.2.1']) // warm now

    const changes: [string, () => Promise<unknown>, (l: ZoneLookup | null) => boolean][] = [
      [
        'apex A',
        () => post(z.id, { type: 'A', name: '@', content: '192.0.2.80' }),
        (l) => rdata(apexOf(l).sets.A ? apexOf(l) : undefined, 'A').includes('192.0.2.80'),
      ],
      [
        'apex MX',
        () => post(z.id, { type: 'MX', name: '@', content: `mx.${z.name}`, priority: 10 }),
        (l) => rdata(apexOf(l), 'MX').length === 1,
      ],
      [
        'apex TXT',
        () => post(z.id, { type: 'TXT', name: '@', content: 'v=spf1 -all' }),
        (l) => rdata(apexOf(l), 'TXT').length === 1,
      ],
      [
        'SOA values',
        () => api('PATCH', `/zones/${z.id}/dns_settings`, { soa: { min_ttl: 120, refresh: 7777 } }),
        (l) => l!.zone.soa.minimum === 120 && l!.zone.soa.refresh === 7777,
      ],
      [
        'NS TTL',
        () => api('PATCH', `/zones/${z.id}/dns_settings`, { ns_ttl: 7200 }),
        (l) => apexOf(l).sets.NS?.ttl === 7200,
      ],
      [
        'a record below the apex',
        () => post(z.id, { type: 'AAAA', name: 'www', content: '2001:db8::1' }),
        (l) => rdata(nodeOf(l, www), 'AAAA').length === 1,
      ],
    ]
    for (const [what, change, visible] of changes) {
      const res = (await change()) as { status?: number }
      if (res?.status !== undefined) expect(res.status, what).toBe(200)
      await settle(z.id)
      // Within the window the isolate answers from memory without asking KV…
      expect(visible(await view.lookup(www)), `${what} seen before revalidateMs passed`).toBe(false)
      // …and once it has passed, the next query confirms the zone and sees the change.
      clock.now += REVALIDATE_MS + 1
      expect(visible(await view.lookup(www)), `${what} not seen after revalidateMs`).toBe(true)
    }
  })

  it('a name that exists keeps answering while its zone moves to another bucket count', async () => {
    const z = await createZone('move')
    await tweak(z.id, (b) => (b.limits = { ...b.limits, namesPerBucket: 8, maxKvOps: 60 }))
    await settle(z.id)
    const target = `keep.${z.name}`
    await post(z.id, { type: 'A', name: 'keep', content: '192.0.2.9' })
    await settle(z.id)
    const { view, clock } = isolate()
    const check = async (when: string) => {
      clock.now += REVALIDATE_MS + 1
      expect(rdata(nodeOf(await view.lookup(target), target), 'A'), `${when}: warm`).toEqual([
        '192.0.2.9',
      ])
      const cold = new KvZoneView(env.ZONES_KV, { revalidateMs: REVALIDATE_MS })
      expect(rdata(nodeOf(await cold.lookup(target), target), 'A'), `${when}: cold`).toEqual([
        '192.0.2.9',
      ])
    }
    await check('at 16 buckets')
    const startCount = (await builder(z.id).status()).layout!.buckets
    // Past twice 8 names a bucket: the next large pass asks for a full build onto a larger count,
    // which runs over several invocations (a 60-operation budget); read between every step.
    const posts = Array.from({ length: 400 }, (_, i) => ({
      type: 'A',
      name: `n${i}`,
      content: '192.0.2.1',
    }))
    expect((await api('POST', `/zones/${z.id}/dns_records/batch`, { posts })).status).toBe(200)
    let steps = 0
    for (; steps < 500; steps++) {
      await check(`step ${steps}`)
      const s = await builder(z.id).status()
      if (s.layout!.buckets !== startCount && !s.full && !s.fullRequested && s.dirtyBuckets === 0)
        break
      if (!(await runDurableObjectAlarm(builder(z.id)))) await sleep(2)
    }
    expect((await builder(z.id).status()).layout!.buckets).toBeGreaterThan(startCount)
    expect(steps).toBeGreaterThan(3) // the move really was observed in between
    await check('after the move')
  }, 30_000)
})
