/**
 * Three D1 shards (vitest project `shards`): the cron's feed reconciliation reads the served zones
 * of every shard.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../../../test/api/helpers.ts'
import { maintain } from '../cron/maintenance.ts'
import { applyStrictLimits, inInvocation } from '@edgedns/strict-bindings'
import { primaryFeed } from './zone-feed.ts'

describe('feed reconciliation over three shards', () => {
  it('tells the feed the served zones of every shard', async () => {
    const zones: { id: string; name: string; shard: number }[] = []
    for (let i = 0; i < 3; i++) {
      const account = await api('POST', '/accounts', { name: `feed-shards-${i}` })
      expect(account.status).toBe(200)
      const id = account.body.result.id as string
      const name = `feed-shard-${i}.example`
      const zone = await api('POST', '/zones', { name, account: { id } })
      expect(zone.status).toBe(200)
      const shard = await api('GET', `/accounts/${id}/shard`)
      zones.push({ id: zone.body.result.id, name, shard: shard.body.result.shard })
    }
    expect(new Set(zones.map((z) => z.shard)).size).toBe(3)

    await inInvocation(() => maintain(applyStrictLimits(env)))

    const reply = await primaryFeed(env).poll({ cursor: null, epoch: null })
    expect(reply.complete).toBe(true)
    const known = new Map(reply.entries.map((e) => [e.zone, e]))
    for (const z of zones) expect(known.get(z.name)).toMatchObject({ id: z.id, op: 'head' })
  })
})
