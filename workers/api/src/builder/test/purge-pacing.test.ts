/**
 * @module A zone deleted right after a change: the purge deletes the keys that change wrote no
 * sooner than one second after their last write (production KV: one write per key per second).
 * The builder runs with production pacing and the strict KV binding's per-key write check, which
 * fails the test on any second write to a key within a second.
 */
import { describe, expect, it } from 'vitest'
import { strictKv } from '@edgedns/strict-bindings'
import { api, builder, createZone, kvMeta, kvNames, kvZoneKeys, settle, tweak } from './helpers.ts'

describe('zone purge pacing', () => {
  it('waits out the write interval of keys written just before the zone was deleted', async () => {
    const z = await createZone('purge-paced')
    await settle(z.id)
    await tweak(z.id, (b) => {
      b.limits.keyWriteIntervalMs = 1000
      b.io.kv = strictKv(b.io.kv, { writeIntervalMs: 1000 })
    })
    await api('POST', `/zones/${z.id}/dns_records/batch`, {
      posts: [{ type: 'A', name: 'www', content: '192.0.2.1' }],
    })
    await settle(z.id)
    expect(await kvNames(z.name)).toEqual([`www.${z.name}`])

    expect((await api('DELETE', `/zones/${z.id}`)).status).toBe(200)
    const status = await settle(z.id)
    expect(status.deleted).toBe(true)
    expect(status.lastPass).toMatchObject({ kind: 'purge' })
    expect(await kvZoneKeys(z.name)).toEqual([])
    expect(await kvMeta(z.name)).toBeNull()
    expect((await builder(z.id).status()).purge).toBeNull()
  })
})
