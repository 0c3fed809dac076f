/**
 * LOC and SVCB/HTTPS rdata read from the wire as presentation text (what a zone transfer from
 * BIND or Knot carries), and rdata whose text would not encode back to it shown in RFC 3597 form.
 */
import { TYPE_CODES as T } from '@edgedns/dns-facts'
import { describe, expect, it } from 'vitest'
import { decodeMessage } from './message.ts'
import { encodeRdata } from './rdata/index.ts'
import { encodeResponse } from './response.ts'
import { hexOf } from './test-oracle.ts'

/** The presentation text a message carrying `rdata` (text or `\# len hex`) decodes to. */
function decoded(type: number, rdata: string): string {
  const answer = [{ name: 'x.test', type, ttl: 60, rdata }]
  return decodeMessage(encodeResponse({ id: 1, rcode: 0, answer })).answer[0]!.data
}

/** `hex` (spaces ignored) as RFC 3597 generic rdata. */
const generic = (hex: string): string => {
  const h = hex.replace(/\s+/g, '')
  return `\\# ${h.length / 2} ${h}`
}

describe('LOC from the wire', () => {
  it.each([
    ['37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m'],
    ['52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000.00m 10.00m'],
    ['42 21 0.000 S 71 6 18.500 W 24.00m 1.00m 10000.00m 10.00m'],
    ['0 0 0.000 N 0 0 0.000 E -100000.00m 90000000.00m 0.00m 0.00m'],
    ['90 0 0.000 S 180 0 0.000 W 42849672.95m 0.01m 0.10m 0.00m'],
  ])('%s reads back as written', (text) => {
    expect(decoded(T.LOC, text)).toBe(text)
  })

  it('writes the defaults a short form left out', () => {
    expect(decoded(T.LOC, '42 21 S 71 6 18.5 W 24m')).toBe(
      '42 21 0.000 S 71 6 18.500 W 24.00m 1.00m 10000.00m 10.00m'
    )
  })

  it.each([
    ['a version other than 0', '01 12 16 13 8b3cf018 80000000 00989680'],
    ['a size digit above 9', '00 a0 16 13 8b3cf018 80000000 00989680'],
    ['a size of mantissa 0 with a power of ten', '00 05 16 13 8b3cf018 80000000 00989680'],
    ['a latitude past the pole', '00 12 16 13 93a3e081 80000000 00989680'],
  ])('shows %s in RFC 3597 form', (_, hex) => {
    expect(decoded(T.LOC, generic(hex))).toBe(generic(hex))
  })
})

describe('SVCB and HTTPS from the wire', () => {
  it.each([
    [T.HTTPS, '0 foo.example.com.'],
    [T.SVCB, '1 .'],
    [T.HTTPS, '1 . alpn="h2,h3" port=443'],
    [T.SVCB, '2 svc.example.net. alpn="h3,h2" port=8443'],
    [T.SVCB, '16 foo.example.org. mandatory=alpn,ipv4hint alpn="h2,h3-19" ipv4hint=192.0.2.1'],
    [T.HTTPS, '1 . alpn="h3" no-default-alpn ech=AQI='],
    [T.SVCB, '1 foo.example.com. ipv6hint=2001:db8::1,2001:db8::53:1'],
    [T.SVCB, '1 foo.example.com. key667="hello\\210qoo"'],
    [T.SVCB, '1 foo.example.com. key667'],
    [T.SVCB, '1 doh.example. alpn="h2" dohpath="/dns-query{?dns}" ohttp'],
  ])('type %i %s reads back as written', (type, text) => {
    expect(decoded(type, text)).toBe(text)
  })

  it('escapes a comma and a backslash inside an alpn id so the text encodes to the same octets', () => {
    const text = '16 foo.example.org. alpn="f\\\\\\\\oo\\\\,bar,h2"'
    const read = decoded(T.SVCB, text)
    expect(read).toBe(text)
    expect(hexOf(encodeRdata(T.SVCB, read))).toBe(hexOf(encodeRdata(T.SVCB, text)))
  })

  it.each([
    ['keys out of order', '0001 00 0003 0002 01bb 0001 0003 026832'],
    ['a key twice', '0001 00 0003 0002 01bb 0003 0002 01bc'],
    ['a port of three octets', '0001 00 0003 0003 01bb00'],
    ['an alpn id running past its value', '0001 00 0001 0003 056832'],
    ['a mandatory list naming a key the record lacks', '0001 00 0000 0002 0003'],
    ['no-default-alpn without alpn', '0001 00 0002 0000'],
  ])('shows %s in RFC 3597 form', (_, hex) => {
    expect(decoded(T.SVCB, generic(hex))).toBe(generic(hex))
  })
})
