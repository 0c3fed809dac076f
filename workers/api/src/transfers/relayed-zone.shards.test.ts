/**
 * The transfer relay over several shards: a zone whose account lives on another shard than the
 * directory's is found by name in one directory read, then served from its shard: a SOA check in
 * one batch, an AXFR in one more (its records with the zone's change sequence).
 */
import { env } from 'cloudflare:workers'
import { encodeQuery } from '@edgedns/dns-wire'
import { parseTsigKey, signMessage } from '@edgedns/zone-transfer'
import { describe, expect, it } from 'vitest'
import { countingD1 } from '../../../../test/api/counting-d1.ts'
import { api } from '../../../../test/api/helpers.ts'
import { moveAndWait } from '../../../../test/api/shard-move.ts'
import { answerRelayedQuery } from './outgoing-transfer.ts'

const SECRET = btoa('relay-over-shards-0123456789abcd')
const KEY = parseTsigKey(`hmac-sha256:relay-key:${SECRET}`)

async function post(path: string, body?: unknown): Promise<any> {
  const res = await api('POST', path, body)
  if (res.status !== 200) throw new Error(`POST ${path}: ${JSON.stringify(res.body)}`)
  return res.body.result
}

describe('the transfer relay over several shards', () => {
  it(
    'answers from the zone account shard: the directory, then its settings (and an AXFR its records)',
    { timeout: 60_000 },
    async () => {
      const account = (await api('POST', '/accounts', { name: 'relay-shards' })).body.result
        .id as string
      const base = `/accounts/${account}/secondary_dns`
      const zone = await post('/zones', { name: 'relay-shards.example', account: { id: account } })
      const key = await post(`${base}/tsigs`, {
        name: 'relay-key',
        algo: 'hmac-sha256',
        secret: SECRET,
      })
      const peer = await post(`${base}/peers`, { name: 'ns1' })
      await api('PUT', `${base}/peers/${peer.id}`, {
        name: 'ns1',
        ip: '192.0.2.53',
        tsig_id: key.id,
      })
      await post(`/zones/${zone.id}/secondary_dns/outgoing`, { name: zone.name, peers: [peer.id] })
      await post(`/zones/${zone.id}/secondary_dns/outgoing/enable`)
      const at = (await api('GET', `/accounts/${account}/shard`)).body.result.shard as number
      if (at === 0) expect((await moveAndWait(account, 1)).done?.status).toBe('done')

      const bag = env as unknown as Record<string, D1Database>
      const counted = ['DB', 'DB_1', 'DB_2'].map((b) => countingD1(bag[b]!))
      const countedEnv = { ...env, DB: counted[0]!.db, DB_1: counted[1]!.db, DB_2: counted[2]!.db }
      for (const type of ['SOA', 'AXFR'] as const) {
        const before = counted.map((c) => c.trips)
        const query = encodeQuery(zone.name, type, { id: 3, rd: false })
        const signed = await signMessage(query, KEY, { time: Math.floor(Date.now() / 1000) })
        const answer = await answerRelayedQuery(countedEnv as never, {
          query: signed.message,
          client: '192.0.2.53',
          now: Math.floor(Date.now() / 1000),
          mayRelay: () => true,
        })
        const bytes = new Uint8Array(await new Response(answer.body).arrayBuffer())
        expect(bytes[5]! & 0x0f).toBe(0)
        expect(await answer.completed).toBe(true)
        const trips = counted.map((c, i) => c.trips - before[i]!)
        expect(trips[0]).toBe(1)
        expect(trips[1]! + trips[2]!).toBe(type === 'SOA' ? 1 : 2)
      }
    }
  )
})
