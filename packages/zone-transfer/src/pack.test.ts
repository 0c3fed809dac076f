import { decodeMessage, encodeResponse, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { axfrRecords, packTransfer } from './index.ts'

const soa: ResponseRR = {
  name: 'example.test',
  type: 6,
  ttl: 3600,
  rdata: 'ns1.example.test. admin.example.test. 7 7200 3600 1209600 300',
}
const txt = (i: number): ResponseRR => ({
  name: `host-${i}.example.test`,
  type: 16,
  ttl: 300,
  rdata: `"record ${i}"`,
})
const AXFR = { name: 'example.test', type: 252 }
const zone = (n: number): ResponseRR[] => [
  ...axfrRecords(
    soa,
    Array.from({ length: n }, (_, i) => txt(i))
  ),
]

function occurrences(haystack: Uint8Array, needle: string): number {
  const text = new TextDecoder('latin1').decode(haystack)
  return text.split(needle).length - 1
}

describe('packing a transfer into messages', () => {
  it.each([
    { records: 0, maxSize: 65535, reserve: 0 },
    { records: 10, maxSize: 65535, reserve: 0 },
    { records: 500, maxSize: 1024, reserve: 0 },
    { records: 500, maxSize: 1024, reserve: 300 },
    { records: 5000, maxSize: 65535, reserve: 100 },
  ])(
    '$records records under $maxSize octets (reserve $reserve): all in order, each message fits',
    (c) => {
      const records = zone(c.records)
      const messages = packTransfer(records, {
        id: 77,
        question: AXFR,
        maxSize: c.maxSize,
        reserve: c.reserve,
      })
      const decoded = messages.map((m) => decodeMessage(m))
      for (const m of messages) expect(m.length).toBeLessThanOrEqual(c.maxSize - c.reserve)
      expect(decoded.map((m) => m.question.length)).toEqual(
        decoded.map((_, i) => (i === 0 ? 1 : 0))
      )
      for (const m of decoded)
        expect(m).toMatchObject({ id: 77, qr: true, aa: true, rcode: 0, tc: false })
      const names = decoded.flatMap((m) => m.answer.map((rr) => `${rr.name} ${rr.type}`))
      expect(names).toEqual(records.map((rr) => `${rr.name}. ${rr.type === 6 ? 'SOA' : 'TXT'}`))
      if (c.maxSize === 1024) expect(messages.length).toBeGreaterThan(5)
    }
  )

  it('compresses names within each message, never across messages', () => {
    const messages = packTransfer(zone(500), { id: 1, question: AXFR, maxSize: 2048 })
    expect(messages.length).toBeGreaterThan(2)
    // Every message spells the zone name out once and points to it afterwards.
    for (const m of messages) expect(occurrences(m, 'example')).toBe(1)
  })

  it('a record too large for any message is refused', () => {
    const big: ResponseRR = {
      name: 'big.example.test',
      type: 16,
      ttl: 1,
      rdata: `"${'x'.repeat(250)}" `.repeat(8),
    }
    expect(() => packTransfer([soa, big], { id: 1, question: AXFR, maxSize: 1024 })).toThrow(
      /does not fit in one message/
    )
  })

  it('the SOA comes first and last, and only there', () => {
    const records = [...axfrRecords(soa, [txt(1), soa, txt(2)])]
    expect(records.map((rr) => rr.type)).toEqual([6, 16, 16, 6])
  })

  /** The whole transfer in one message as dns-wire's encoder writes it, compressing every name. */
  const encoded = (records: ResponseRR[], compress = true) =>
    encodeResponse({
      id: 3,
      rcode: 0,
      aa: true,
      question: { name: AXFR.name, type: AXFR.type, class: 1 },
      answer: records,
      compress,
    })
  const readBack = (message: Uint8Array) =>
    decodeMessage(message).answer.map((rr) => `${rr.name} ${rr.typeCode} ${rr.data}`)

  it.each([
    {
      owners: 'owners one label below the zone into the octets of compressing every name',
      records: zone(300),
      sameOctets: true,
    },
    {
      owners: 'deeper, mixed-case and escaped owners within a few octets of compressing every name',
      records: [
        soa,
        { name: 'example.test', type: 2, ttl: 300, rdata: 'ns1.example.test.' },
        { name: 'www.example.test', type: 1, ttl: 300, rdata: '192.0.2.1' },
        { name: 'www.example.test', type: 1, ttl: 300, rdata: '192.0.2.2' },
        { name: 'a.b.example.test', type: 5, ttl: 300, rdata: 'www.example.test.' },
        { name: 'a.b.example.test', type: 16, ttl: 300, rdata: '"text"' },
        { name: 'MiXed.example.test', type: 1, ttl: 300, rdata: '192.0.2.3' },
        { name: 'we\\.ird.example.test', type: 1, ttl: 300, rdata: '192.0.2.4' },
        { name: 'x.b.example.test', type: 15, ttl: 300, rdata: '10 mail.example.net.' },
        { name: 'x.b.example.test', type: 15, ttl: 300, rdata: '20 a.b.example.test.' },
        soa,
      ] satisfies ResponseRR[],
      sameOctets: false,
    },
  ])('packs $owners, and every record reads back', ({ records, sameOctets }) => {
    const [message, more] = packTransfer(records, { id: 3, question: AXFR })
    expect(more).toBeUndefined()
    const everyName = encoded(records)
    if (sameOctets) expect(message).toEqual(everyName)
    // Names in rdata may point at the zone's name where an owner would have served: a few octets.
    else expect(message!.length).toBeLessThan(everyName.length + 16)
    expect(message!.length).toBeLessThan(encoded(records, false).length - 100)
    expect(readBack(message!)).toEqual(readBack(everyName))
  })
})
