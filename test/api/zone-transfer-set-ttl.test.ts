/**
 * One TTL per RRset in outgoing transfers, as the edge serves a set and the export writes it: the
 * smallest of its records' (automatic, 1, served as 300). An AXFR gives every record of a set that
 * TTL, also when the set crosses a page boundary; an IXFR adds records at their set's TTL and, when
 * a change moves the set's TTL, deletes and adds the whole set so the secondary holds it at the new
 * one.
 */
import { decodeMessage, type MessageRR } from '../../packages/dns-wire/src/index.ts'
import { TsigStreamVerifier } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { api } from './helpers.ts'
import {
  KEY,
  messagesOf,
  now,
  pagedLines,
  relay,
  serialOf,
  signed,
  zoneWithTransfers,
} from './transfer-relay.ts'

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

/** The records of a relayed IXFR from `serial`: `SOA <serial>` or `owner TTL data`. */
async function ixfr(zone: Zone, serial: number): Promise<string[]> {
  const request = await signed(zone.name, 'IXFR', KEY, `${zone.name} ${serial}`)
  const verifier = new TsigStreamVerifier(KEY, request.mac, now)
  const rrs: MessageRR[] = []
  for (const m of await messagesOf(await relay(request.message)))
    rrs.push(...decodeMessage(await verifier.next(m)).answer)
  verifier.finish()
  return rrs.map((rr) =>
    rr.typeCode === 6
      ? `SOA ${rr.data.split(' ')[2]}`
      : `${rr.name.split('.')[0]} ${rr.ttl} ${rr.data}`
  )
}

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

  it('adds at the set TTL, and moves the whole set when a change moves its TTL, in an IXFR', async () => {
    const zone = await zoneWithTransfers()
    await add(zone, 'TXT', 'txt', '"first"', 3600)
    const s0 = await serialOf(zone.id)
    // A record of lower TTL joins the set: the set moves from 3600 to 600.
    const another = await add(zone, 'TXT', 'txt', '"another"', 600)
    const s1 = await serialOf(zone.id)
    expect(await ixfr(zone, s0)).toEqual([
      `SOA ${s1}`,
      `SOA ${s0}`,
      'txt 3600 "first"',
      `SOA ${s1}`,
      'txt 600 "another"',
      'txt 600 "first"',
      `SOA ${s1}`,
    ])
    // The lower one's TTL patched up: the set moves from 600 to 3600.
    await api('PATCH', `/zones/${zone.id}/dns_records/${another.id}`, { ttl: 7200 })
    const s2 = await serialOf(zone.id)
    expect(await ixfr(zone, s1)).toEqual([
      `SOA ${s2}`,
      `SOA ${s1}`,
      'txt 600 "another"',
      'txt 600 "first"',
      `SOA ${s2}`,
      'txt 3600 "another"',
      'txt 3600 "first"',
      `SOA ${s2}`,
    ])
    // Condensed from before both: the set at 3600, then at 3600 with one record more.
    expect(await ixfr(zone, s0)).toEqual([
      `SOA ${s2}`,
      `SOA ${s0}`,
      `SOA ${s2}`,
      'txt 3600 "another"',
      `SOA ${s2}`,
    ])
    // A record of automatic TTL (served as 300) joins; then a patch that leaves the set's TTL
    // where it is changes nothing a secondary holds.
    const auto = await add(zone, 'TXT', 'txt', '"auto"', 1)
    const s3 = await serialOf(zone.id)
    expect(await ixfr(zone, s2)).toEqual([
      `SOA ${s3}`,
      `SOA ${s2}`,
      'txt 3600 "another"',
      'txt 3600 "first"',
      `SOA ${s3}`,
      'txt 300 "another"',
      'txt 300 "auto"',
      'txt 300 "first"',
      `SOA ${s3}`,
    ])
    await api('PATCH', `/zones/${zone.id}/dns_records/${another.id}`, { ttl: 900 })
    const s4 = await serialOf(zone.id)
    expect(await ixfr(zone, s3)).toEqual([`SOA ${s4}`, `SOA ${s3}`, `SOA ${s4}`, `SOA ${s4}`])
    // The lowest removed: the rest of the set moves up to the smallest left.
    await api('DELETE', `/zones/${zone.id}/dns_records/${auto.id}`)
    const s5 = await serialOf(zone.id)
    expect(await ixfr(zone, s4)).toEqual([
      `SOA ${s5}`,
      `SOA ${s4}`,
      'txt 300 "auto"',
      'txt 300 "another"',
      'txt 300 "first"',
      `SOA ${s5}`,
      'txt 900 "another"',
      'txt 900 "first"',
      `SOA ${s5}`,
    ])
  })
})
