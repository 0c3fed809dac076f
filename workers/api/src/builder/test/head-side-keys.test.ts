/**
 * The keys a head names besides its own: an overlay key or a versions table is never deleted
 * while the newest head names it. Heads stay small however many buckets per-record passes
 * rewrote since the last full build:
 * beyond `headVersionsMax` bucket versions a head names a versions table and lists only the
 * versions changed since; tables no head names any more are deleted after the grace period, and a
 * warm and a cold reader answer every name from the versions the heads name.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  decodeBucketVersions,
  decodeHead,
  headKeys,
  headCounter,
  KvZoneView,
  type ZoneHead,
} from '@edgedns/kv-layout'
import { api, builder, converge, createZone, kvMeta, post, settle, tweak } from './helpers.ts'

const MAX = 4

/** The zone's newest head as KV holds it (its own text, before any table is merged in). */
async function newestHead(zone: string): Promise<ZoneHead> {
  const values = await env.ZONES_KV.get(headKeys(zone), 'text')
  const texts = [...values.values()].filter((t): t is string => t !== null)
  texts.sort((a, b) => headCounter(b) - headCounter(a))
  return decodeHead(texts[0]!)
}

/** A full build through the API, driven to its end. */
async function rebuild(zoneId: string): Promise<void> {
  const { result } = (await api('POST', `/zones/${zoneId}/propagation/rebuild`)).body
  for (let i = 0; i < 50 && (await builder(zoneId).status()).cursor < result.seq; i++)
    await builder(zoneId).notify(zoneId, 0)
  await settle(zoneId)
}

/** A zone of 200 names over 256 buckets (four names per bucket), fully built. */
async function seededZone(label: string) {
  const z = await createZone(label)
  // No grace while the first full build retires the 16 buckets the empty zone started with.
  await tweak(z.id, (b) => {
    b.limits = { ...b.limits, namesPerBucket: 4, headVersionsMax: MAX, retireGraceMs: 0 }
  })
  const seed = Array.from({ length: 200 }, (_, i) => ({
    type: 'A',
    name: `s${i}`,
    content: '192.0.2.1',
  }))
  await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: seed })
  await settle(z.id)
  await rebuild(z.id)
  expect((await kvMeta(z.name))!.layout!.buckets).toBe(256)
  await tweak(z.id, (b) => (b.limits = { ...b.limits, retireGraceMs: 60_000 }))
  return z
}

describe('versions tables', () => {
  it('heads list at most headVersionsMax bucket versions; beyond, a table they name, and readers answer every name', async () => {
    const z = await seededZone('vtable')
    const warm = new KvZoneView(env.ZONES_KV, { revalidateMs: 0 })
    expect((await warm.lookup(`s7.${z.name}`))!.nodes.get(`s7.${z.name}`)).toBeDefined()
    const tables = new Set<string>()
    for (let k = 0; k < 30; k++) {
      await post(z.id, { type: 'A', name: `s${k}`, content: `192.0.2.${100 + k}` })
      await settle(z.id)
      const head = await newestHead(z.name)
      expect(head.bv!.changed.size).toBeLessThanOrEqual(MAX)
      if (head.versionsKey !== undefined) {
        tables.add(head.versionsKey)
        const table = decodeBucketVersions(await env.ZONES_KV.get(head.versionsKey, 'text'))
        expect(table.base).toBe(head.bv!.base)
      }
    }
    // Thirty rewritten buckets against a limit of four: several tables, each named in turn.
    expect(tables.size).toBeGreaterThan(1)
    const status = await builder(z.id).status()
    const named = (await newestHead(z.name)).versionsKey
    expect(status.versionsTable?.key).toBe(named)
    // Earlier tables wait out the grace period like overlay keys; the named one is not queued.
    expect(status.overlayKeys.map((o) => o.key)).not.toContain(named)
    for (const t of tables)
      if (t !== named) expect(status.overlayKeys.map((o) => o.key)).toContain(t)
    const cold = new KvZoneView(env.ZONES_KV, { revalidateMs: 0 })
    for (let i = 0; i < 200; i++) {
      const name = `s${i}.${z.name}`
      const want = [i < 30 ? `192.0.2.${100 + i}` : '192.0.2.1']
      for (const view of [warm, cold]) {
        const rdata = (await view.lookup(name))!.nodes.get(name)?.sets.A?.rdata
        expect(rdata?.filter((r) => r !== '192.0.2.1' || i >= 30)).toEqual(want)
      }
    }
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('a full build names the base alone again, and the table it replaced is retired', async () => {
    const z = await seededZone('vtable-full')
    for (let k = 0; k < 8; k++) {
      await post(z.id, { type: 'TXT', name: `s${k}`, content: `t${k}` })
      await settle(z.id)
    }
    const table = (await newestHead(z.name)).versionsKey
    expect(table).toBeDefined()
    await rebuild(z.id)
    const head = await newestHead(z.name)
    expect(head.versionsKey).toBeUndefined()
    expect(head.bv!.changed.size).toBe(0)
    const status = await builder(z.id).status()
    expect(status.versionsTable).toBeNull()
    expect(status.overlayKeys.map((o) => o.key)).toContain(table)
    expect((await converge(z.id)).differences).toEqual([])
  })

  it('an overlay key the newest head names is kept past the grace period, and deleted a grace period after a newer head replaced it', async () => {
    const z = await createZone('overlay-kept')
    let clock = Date.now() + 5_000
    await tweak(z.id, (b) => {
      b.io = { ...b.io, now: () => clock }
      b.limits = { ...b.limits, retireGraceMs: 60_000 }
    })
    // About 20 KB of overlay in one pass of 200 names: its own key, and too few names for the
    // flush to write another head.
    const big = Array.from({ length: 200 }, (_, i) => ({
      type: 'TXT',
      name: `t${i}`,
      content: 'x'.repeat(100),
    }))
    await api('POST', `/zones/${z.id}/dns_records/batch`, { posts: big })
    await settle(z.id)
    const key = (await newestHead(z.name)).overlayKey
    expect(key).toBeDefined()
    clock += 120_000
    await builder(z.id).notify(z.id, 0)
    await settle(z.id)
    expect((await newestHead(z.name)).overlayKey).toBe(key)
    expect(await env.ZONES_KV.get(key!, 'text')).not.toBeNull()
    // A newer head with an inline overlay: the key's grace period starts now.
    await post(z.id, { type: 'A', name: 'after', content: '192.0.2.8' })
    await settle(z.id)
    expect((await newestHead(z.name)).overlayKey).toBeUndefined()
    // With no superseded bucket version left to delete, the idle builder still wakes for the key.
    await runInDurableObject(builder(z.id), (_: unknown, state) => {
      state.storage.sql.exec('DELETE FROM retired')
    })
    await builder(z.id).notify(z.id, 0)
    await settle(z.id)
    expect((await builder(z.id).status()).alarm).toBe(clock + 60_000)
    clock += 30_000
    await builder(z.id).notify(z.id, 0)
    expect(await env.ZONES_KV.get(key!, 'text')).not.toBeNull()
    clock += 31_000
    await builder(z.id).notify(z.id, 0)
    await settle(z.id)
    expect(await env.ZONES_KV.get(key!, 'text')).toBeNull()
  })
})
