/**
 * Invariant 5 through the worker's own wiring: the module-level KvZoneView reads an existing name
 * in one KV bulk call, and answers again from the isolate cache with no KV call while the zone's
 * last confirmation is within the revalidation window.
 */
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { zoneView } from '../../workers/doh/src/view.ts'
import { wireQuery } from '../../workers/doh/src/wire.ts'
import { decodeMessage, encodeQuery } from '../../packages/dns-wire/src/index.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() =>
  seedZone(
    'trip.test',
    `
@      3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@       300 IN A   192.0.2.10
www     300 IN A   192.0.2.1
a.b.c   300 IN A   192.0.2.2
`
  )
)

/**
 * The real binding, counting round trips: bulk calls issued while another is in flight (a key set
 * over 100 keys goes out as parallel calls) belong to the same round trip. Text values only.
 */
function countingKv(): { kv: KVNamespace; calls: string[][]; rounds: () => number } {
  const calls: string[][] = []
  let rounds = 0
  let inFlight = 0
  const kv = {
    async get(keys: string[], type: { type: 'text'; cacheTtl?: number }) {
      expect(type.type).toBe('text')
      calls.push(keys)
      if (inFlight === 0) rounds++
      inFlight++
      try {
        return await env.ZONES_KV.get(keys, type)
      } finally {
        inFlight--
      }
    },
  } as unknown as KVNamespace
  return { kv, calls, rounds: () => rounds }
}

/**
 * Every request of this file passes the same environment, so the isolate's view (created by the
 * first of them) takes its revalidation window from REVALIDATE_MS, as in production. A long
 * window keeps the counts independent of how long KV reads take here; with the default 5 ms, a
 * read slower than the window would make the next query revalidate.
 */
const ENV = { REVALIDATE_MS: '60000' }

async function askCounting(name: string, type: string) {
  const { kv, calls, rounds } = countingKv()
  // The worker's wiring: the isolate's view, reading through the current request's binding.
  const res = await wireQuery(encodeQuery(name, type), zoneView({ ZONES_KV: kv, ...ENV }))
  return { message: decodeMessage(new Uint8Array(await res.arrayBuffer())), calls, count: rounds() }
}

describe('KV round trips through the isolate view', () => {
  it('is one view per isolate, whatever the request', () => {
    expect(zoneView({ ZONES_KV: countingKv().kv, ...ENV })).toBe(
      zoneView({ ZONES_KV: countingKv().kv, ...ENV })
    )
  })

  it('a cold zone: one bulk read finds the zone and the name', async () => {
    const r = await askCounting('a.b.c.trip.test', 'A')
    expect(r.message.answer).toHaveLength(1)
    expect(r.count).toBe(1)
  })

  it('the apex, zone cached: no KV read', async () => {
    const r = await askCounting('trip.test', 'A')
    expect(r.message.answer.map((rr) => rr.data)).toEqual(['192.0.2.10'])
    expect(r.count).toBe(0)
  })

  it('a name not cached yet, zone cached: one bulk read of its buckets only', async () => {
    const r = await askCounting('www.trip.test', 'A')
    expect(r.message.answer).toHaveLength(1)
    expect(r.count).toBe(1)
    expect(r.calls[0]!.every((k) => k.startsWith('b:trip.test:16:'))).toBe(true)
  })

  it('a name cached, asked again: no KV read', async () => {
    const r = await askCounting('www.trip.test', 'A')
    expect(r.message.answer.map((rr) => rr.data)).toEqual(['192.0.2.1'])
    expect(r.count).toBe(0)
  })
})
