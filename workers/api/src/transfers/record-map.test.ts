import type { MessageRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { mapOrSkip, mapTransferred } from './record-map.ts'

let n = 0
const ctx = {
  zoneId: 'z'.repeat(32),
  zoneName: 'example.test',
  now: '2026-11-26T00:00:00.000Z',
  newId: () => String(n++).padStart(32, '0'),
}
const rr = (name: string, type: string, data: string, ttl = 300): MessageRR => ({
  name,
  type,
  typeCode: 0,
  class: 1,
  ttl,
  data,
})

describe('a transferred record as a record of the API', () => {
  it('takes content as the records API stores it', () => {
    expect(mapTransferred(rr('WWW.Example.Test.', 'A', '192.0.2.1'), ctx)).toMatchObject({
      name: 'www.example.test',
      type: 'A',
      content: '192.0.2.1',
      ttl: 300,
      proxied: false,
    })
    expect(mapTransferred(rr('example.test.', 'MX', '10 mail.example.test.'), ctx)).toMatchObject({
      type: 'MX',
      priority: 10,
      content: 'mail.example.test',
    })
    expect(
      mapTransferred(rr('_sip._tcp.example.test.', 'SRV', '10 20 5060 sip.example.test.'), ctx)
    ).toMatchObject({ type: 'SRV', priority: 10 })
  })

  it('holds TTLs within the API range', () => {
    expect(mapTransferred(rr('a.example.test.', 'A', '192.0.2.1', 5), ctx)?.ttl).toBe(60)
    expect(mapTransferred(rr('a.example.test.', 'A', '192.0.2.1', 604800), ctx)?.ttl).toBe(86400)
  })

  it('skips the SOA, types the API does not hold, and names outside the zone', () => {
    const soa = 'ns1.example.test. admin.example.test. 1 7200 900 1209600 300'
    expect(mapTransferred(rr('example.test.', 'SOA', soa), ctx)).toBeNull()
    expect(mapTransferred(rr('example.test.', 'NSEC', 'a.example.test. A RRSIG'), ctx)).toBeNull()
    expect(mapTransferred(rr('www.other.test.', 'A', '192.0.2.1'), ctx)).toBeNull()
  })

  it('skips a DS record at the apex, which the records API refuses, saying why', () => {
    const ds = `2371 13 2 ${'ab'.repeat(32)}`
    expect(mapOrSkip(rr('example.test.', 'DS', ds), ctx)).toMatch(
      /DS record cannot be at the zone apex/
    )
    expect(mapTransferred(rr('sub.example.test.', 'DS', ds), ctx)).toMatchObject({ type: 'DS' })
  })

  it('decodes escapes in owner names as an import does, and names an escaped dot', () => {
    expect(mapTransferred(rr('\\065b.example.test.', 'A', '192.0.2.1'), ctx)).toMatchObject({
      name: 'ab.example.test',
    })
    expect(mapOrSkip(rr('a\\.b.example.test.', 'A', '192.0.2.1'), ctx)).toMatch(
      /Label "a\.b" contains a dot \(written \\\.\)/
    )
  })
})
