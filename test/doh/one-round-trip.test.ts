/**
 * Invariant 5 through the worker's own wiring: the module-level KvZoneView reads an existing name
 * in one KV bulk call, and the apex from the isolate cache with no KV call at all.
 */
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { zoneView } from '../../workers/doh/src/view.ts'
import { wireQuery } from '../../workers/doh/src/wire.ts'
import { decodeMessage, encodeQuery } from './helpers/dns.ts'
import { seedZone } from './helpers/seed.ts'

beforeAll(() =>
  seedZone('trip.test', `
@      3600 IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@       300 IN A   192.0.2.10
www     300 IN A   192.0.2.1
a.b.c   300 IN A   192.0.2.2
`)
)

/** The real binding, counting bulk calls. */
function countingKv(): { kv: KVNamespace; calls: string[][] } {
  const calls: string[][] = []
  const kv = {
    get(keys: string[], type: 'json') {
      calls.push(keys)
      return env.ZONES_KV.get(keys, type)
    },
  } as unknown as KVNamespace
  return { kv, calls }
}

async function askCounting(name: string, type: string) {
  const { kv, calls } = countingKv()
  const res = await wireQuery(encodeQuery(name, type), zoneView(kv))
  return { message: decodeMessage(new Uint8Array(await res.arrayBuffer())), calls: calls.length }
}

describe('KV round trips', () => {
  it('a cold zone: one bulk read finds the zone and the name', async () => {
    const r = await askCounting('a.b.c.trip.test', 'A')
    expect(r.message.answer).toHaveLength(1)
    expect(r.calls).toBe(1)
  })

  it('the apex, zone cached: no KV read', async () => {
    const r = await askCounting('trip.test', 'A')
    expect(r.message.answer.map((rr) => rr.data)).toEqual(['192.0.2.10'])
    expect(r.calls).toBe(0)
  })

  it('a name, zone cached: one bulk read', async () => {
    const r = await askCounting('www.trip.test', 'A')
    expect(r.message.answer).toHaveLength(1)
    expect(r.calls).toBe(1)
  })
})
