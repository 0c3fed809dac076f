/**
 * Packing records whose owners are given as their labels below the zone (`RecordBelowZone`): the
 * messages must be the octets of packing the same records by their whole names, and read back as
 * those names, whatever mix of owners and message boundaries.
 */
import { decodeMessage, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { RecordBelowZone, packTransfer, type TransferRecord } from './index.ts'

const ZONE = 'example.test'
const AXFR = { name: ZONE, type: 252 }
const soa: ResponseRR = {
  name: ZONE,
  type: 6,
  ttl: 3600,
  rdata: 'ns1.example.test. admin.example.test. 7 7200 3600 1209600 300',
}

/** A record of `owner` (labels below the zone, or '@' for the zone itself). */
const record = (owner: string, type: number, rdata: string): ResponseRR => ({
  name: owner === '@' ? ZONE : `${owner}.${ZONE}`,
  type,
  ttl: 300,
  rdata,
})

/** The same record with its owner given below the zone (the zone's own records stay whole). */
const givenBelow = (rr: ResponseRR): TransferRecord =>
  rr.name === ZONE
    ? rr
    : new RecordBelowZone(rr.name.slice(0, -ZONE.length - 1), ZONE, rr.type, rr.ttl, rr.rdata)

const owners = (messages: Uint8Array[]): string[] =>
  messages.flatMap((m) =>
    decodeMessage(m).answer.map((rr) => `${rr.name} ${rr.typeCode} ${rr.data}`)
  )

/** Records of `count` owners, `perOwner` A records each, between the SOAs. */
function zone(count: number, perOwner: number): ResponseRR[] {
  const records = [soa]
  for (let i = 0; i < count; i++)
    for (let k = 0; k < perOwner; k++) records.push(record(`host-${i}`, 1, `10.0.${i & 255}.${k}`))
  records.push(soa)
  return records
}

describe('packing owners given below the zone', () => {
  it.each([
    { shape: 'one record per owner, one message', records: zone(300, 1), maxSize: 65535 },
    { shape: 'RRsets of three, many small messages', records: zone(400, 3), maxSize: 700 },
    // Past 16 KB of a message an owner cannot be pointed to: the next record must not point to it.
    { shape: 'RRsets of two past 16 KB of one message', records: zone(2000, 2), maxSize: 65535 },
    {
      shape: 'deeper, mixed-case, escaped and apex owners',
      records: [
        soa,
        record('@', 2, 'ns1.example.test.'),
        record('www', 1, '192.0.2.1'),
        record('www', 1, '192.0.2.2'),
        record('a.b', 5, 'www.example.test.'),
        record('a.b', 16, '"text"'),
        record('MiXed', 1, '192.0.2.3'),
        record('we\\.ird', 1, '192.0.2.4'),
        record('we\\.ird', 1, '192.0.2.5'),
        record('x.b', 15, '10 mail.example.net.'),
        record('@', 16, '"apex"'),
        record('x.b', 15, '20 a.b.example.test.'),
        soa,
      ],
      maxSize: 65535,
    },
  ])('$shape: the octets of whole names, read back as them', ({ records, maxSize }) => {
    const options = { id: 9, question: AXFR, maxSize }
    const whole = packTransfer(records, options)
    const below = packTransfer(records.map(givenBelow), options)
    expect(owners(below)).toEqual(owners(whole))
    expect(owners(below)).toEqual(records.map((rr) => owners(packTransfer([rr], options))[0]))
    expect(below).toEqual(whole)
  })

  it('a record given below the zone never reads its whole name when its labels are plain', () => {
    let reads = 0
    class Counted extends RecordBelowZone {
      override get name(): string {
        reads++
        return super.name
      }
    }
    const records = [
      soa,
      ...Array.from({ length: 50 }, (_, i) => new Counted(`h${i}`, ZONE, 1, 60, '192.0.2.1')),
      soa,
    ]
    const messages = packTransfer(records, { id: 1, question: AXFR })
    expect(owners(messages)).toHaveLength(52)
    expect(reads).toBe(0)
  })
})
