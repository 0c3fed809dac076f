import { ipv4 } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { canonicalIPv6, isIPv4 } from './ip.ts'

describe('isIPv4', () => {
  it.each(['0.0.0.0', '1.2.3.4', '255.255.255.255', '192.0.2.10'])('accepts %j', (ip) => {
    expect(isIPv4(ip)).toBe(true)
  })
  it.each([
    '1.1',
    '1.2.3',
    '01.2.3.4',
    '1.2.3.256',
    '1.2.3.4.5',
    ' 1.2.3.4',
    '1.2.3.-1',
    'a.b.c.d',
    '',
  ])('rejects %j', (ip) => {
    expect(isIPv4(ip)).toBe(false)
  })
})

describe('IPv4: one grammar for the records API and the wire encoder', () => {
  const encodes = (ip: string): boolean => {
    try {
      return ipv4(ip).length === 4
    } catch {
      return false
    }
  }
  it.each([
    '0.0.0.0',
    '10.0.0.1',
    '255.255.255.255',
    '1.2.3.04',
    '256.1.1.1',
    '1..2.3',
    '1.2.3.4\n',
    '1.2.3.4.',
    '１.2.3.4',
    '0x1.2.3.4',
  ])('%j: accepted by the API exactly when the encoder takes it', (ip) => {
    expect(isIPv4(ip)).toBe(encodes(ip))
  })
})

describe('canonicalIPv6 (RFC 5952)', () => {
  it.each([
    ['fe80::0:0:1', 'fe80::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
    ['::FFFF:0102:0304', '::ffff:1.2.3.4'],
    ['::1.2.3.4', '::102:304'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
  ])('%j -> %j', (input, want) => {
    expect(canonicalIPv6(input)).toBe(want)
  })

  it.each([
    '1.2.3.4',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '12345::',
    'g::1',
    'fe80::1%eth0',
    '::ffff:1.2.3',
    '1:2:3:4:5:6:7::8',
    '1.2.3.4::',
    '1.2.3.4::1',
  ])('rejects %j', (input) => {
    expect(canonicalIPv6(input)).toBeNull()
  })
})
