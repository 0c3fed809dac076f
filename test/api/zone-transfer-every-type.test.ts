/**
 * An outgoing AXFR holds every record type exactly as the zone export writes it: the relay's
 * wire encoding of stored records cannot drift from the presentation path.
 */
import { TYPE_CODES, decodeMessage } from '../../packages/dns-wire/src/index.ts'
import { parseZoneFile } from '../../packages/zonefile/src/index.ts'
import { TsigStreamVerifier } from '../../packages/zone-transfer/src/index.ts'
import { describe, expect, it } from 'vitest'
import { EVERY_TYPE_TYPES, everyTypeZone } from './import-export-fixture.ts'
import { exportZone, importZone } from './import-export-helpers.ts'
import {
  KEY,
  messagesOf,
  now,
  pagedLines,
  relay,
  signed,
  transferredLines,
  wireLine,
  zoneWithTransfers,
} from './transfer-relay.ts'

describe('outgoing AXFR of every record type', () => {
  it('transfers every record type exactly as the zone export writes it', async () => {
    const zone = await zoneWithTransfers()
    expect((await importZone(zone.id, everyTypeZone(zone.name))).status).toBe(200)
    const exported = await exportZone(zone.id)
    const request = await signed(zone.name, 'AXFR')
    const verifier = new TsigStreamVerifier(KEY, request.mac, now)
    const transferred: string[] = []
    for (const m of await messagesOf(await relay(request.message)))
      for (const rr of decodeMessage(await verifier.next(m)).answer)
        transferred.push(wireLine(rr.name, rr.ttl, rr.typeCode, rr.data))
    verifier.finish()
    // The AXFR's closing SOA repeats its first.
    expect(transferred.pop()).toBe(transferred[0])
    // One RRset has one TTL (RFC 2181 §5.2): a zone file's RRset takes its first line's, as a
    // server loading the export does.
    const entries = parseZoneFile(exported.text, { origin: zone.name })
    const setTtl = new Map<string, number>()
    for (const e of entries)
      if (!setTtl.has(`${e.name} ${e.type}`)) setTtl.set(`${e.name} ${e.type}`, e.ttl)
    const expected = entries.map((e) =>
      wireLine(
        e.name,
        setTtl.get(`${e.name} ${e.type}`)!,
        (TYPE_CODES as Record<string, number>)[e.type]!,
        e.rdata
      )
    )
    expect(new Set(expected.map((l) => l.split(' ')[2]))).toEqual(
      new Set(EVERY_TYPE_TYPES.map((t) => String((TYPE_CODES as Record<string, number>)[t])))
        .add('6')
        .add('2')
    )
    expect(transferred.sort()).toEqual(expected.sort())
  })

  it('reads the zone in pages of a few records, each after the last one read: every record once', async () => {
    // Owners at several depths, RRsets of several records and names that sort differently
    // reversed: a page's next key is the last record's place in the stored transfer order.
    const zone = await zoneWithTransfers()
    expect((await importZone(zone.id, everyTypeZone(zone.name))).status).toBe(200)
    const whole = await signed(zone.name, 'AXFR')
    const expected = await transferredLines(await messagesOf(await relay(whole.message)), whole)
    for (const pageSize of [1, 2, 3])
      expect(await pagedLines(zone.name, pageSize)).toEqual(expected)
  })
})
