/**
 * One TTL per RRset in outgoing transfers, as the edge serves a set and the export writes it: the
 * smallest of its records' (automatic, 1, served as 300). An AXFR gives every record of a set that
 * TTL, also when the set crosses a page boundary.
 */
import { describe, expect, it } from 'vitest'
import { api } from './helpers.ts'
import { pagedLines, zoneWithTransfers } from './transfer-relay.ts'

type Zone = { id: string; name: string }

async function add(zone: Zone, type: string, name: string, content: string, ttl: number) {
  const res = await api('POST', `/zones/${zone.id}/dns_records`, {
    type,
    name: `${name}.${zone.name}`,
    content,
    ttl,
  })
  expect(res.body.errors).toEqual([])
  return res.body.result as { id: string }
}

/** `owner TTL rdata` of the records of type `type` in lines of `pagedLines`. */
const ofType = (lines: string[], type: number): string[] =>
  lines
    .map((l) => l.split(' '))
    .filter(([, , t]) => t === String(type))
    .map(([owner, ttl, , hex]) => `${owner!.split('.')[0]} ${ttl} ${hex}`)

describe('one TTL per RRset in outgoing transfers', () => {
  it('sends every record of a set with the set smallest TTL in an AXFR, across page boundaries', async () => {
    const zone = await zoneWithTransfers()
    await add(zone, 'TXT', 'txt', '"first"', 3600)
    await add(zone, 'TXT', 'txt', '"another"', 600)
    await add(zone, 'A', 'auto', '192.0.2.1', 3600)
    await add(zone, 'A', 'auto', '192.0.2.2', 1)
    await add(zone, 'A', 'auto', '192.0.2.3', 7200)
    await add(zone, 'A', 'one', '192.0.2.9', 900)
    const whole = await pagedLines(zone.name, 10_000)
    const txt = ofType(whole, 16)
    expect(txt.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['txt 600', 'txt 600'])
    const a = ofType(whole, 1).map((l) => l.split(' ').slice(0, 2).join(' '))
    expect(a).toEqual(['auto 300', 'auto 300', 'auto 300', 'one 900'])
    // A set cut by the end of a page is given its TTL once the page after has been read.
    for (const pageSize of [1, 2, 3, 4])
      expect(await pagedLines(zone.name, pageSize)).toEqual(whole)
  })
})
