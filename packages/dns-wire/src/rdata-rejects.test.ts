import { describe, expect, it } from 'vitest'
import { RdataError } from './errors.ts'
import { encodeRdata } from './rdata/index.ts'

const bad: [string, number, string][] = [
  ['A octet over 255', 1, '999.1.1.1'],
  ['A with three parts', 1, '192.0.2'],
  ['A leading zero', 1, '192.0.2.01'],
  ['A zero then digits', 1, '00.0.2.1'],
  ['A five parts', 1, '192.0.2.1.5'],
  ['A empty octet', 1, '192..2.1'],
  ['A trailing dot', 1, '192.0.2.1.'],
  ['A four-digit octet', 1, '0192.0.2.1'],
  ['A sign', 1, '+1.0.2.1'],
  ['A empty', 1, ''],
  ['AAAA with two ::', 28, '2001::db8::1'],
  ['AAAA too many groups', 28, '1:2:3:4:5:6:7:8:9'],
  ['AAAA zone id', 28, 'fe80::1%eth0'],
  ['AAAA with an IPv4 part before ::', 28, '1.2.3.4::'],
  ['AAAA with an IPv4 part not last', 28, '::1.2.3.4:5'],
  ['CNAME 64-octet label', 5, `${'a'.repeat(64)}.example.com.`],
  ['CNAME name over 255 octets', 5, `${Array(64).fill('abc').join('.')}.`],
  ['CNAME empty label', 5, 'a..example.com.'],
  ['CNAME two names', 5, 'a.example.com. b.example.com.'],
  ['MX preference too big', 15, '65536 mx.example.com.'],
  ['TXT unterminated quote', 16, '"abc'],
  ['TXT no strings', 16, ''],
  ['HINFO string over 255', 13, `"${'x'.repeat(256)}" "y"`],
  ['SRV missing target', 33, '10 5 5060'],
  ['CAA bad tag', 257, '0 is-sue "x"'],
  ['DS bad hex', 43, '1 13 2 XYZ'],
  ['DNSKEY bad base64', 48, '257 3 13 !!!'],
  ['TLSA odd hex', 52, '3 1 1 ABC'],
  ['URI empty target', 256, '10 1 ""'],
  ['SVCB unknown key name', 64, '1 . foo=bar'],
  ['SVCB duplicate key', 64, '1 . port=1 port=2'],
  ['SVCB key65535', 64, '1 . key65535=x'],
  ['SVCB mandatory lists a missing key', 64, '1 . mandatory=port alpn=h2'],
  ['SVCB mandatory lists itself', 64, '1 . mandatory=mandatory'],
  ['SVCB no-default-alpn without alpn', 65, '1 . no-default-alpn'],
  ['SVCB alpn without value', 65, '1 . alpn'],
  ['SVCB empty alpn item', 65, '1 . alpn=h2,,h3'],
  ['SVCB port not a number', 64, '1 . port=http'],
  ['SVCB bad ipv4hint', 64, '1 . ipv4hint=192.0.2.300'],
  ['generic length mismatch', 65280, '\\# 2 abcdef'],
  ['unknown type without generic form', 65280, 'hello'],
]

describe('rdata that cannot be encoded', () => {
  it.each(bad)('rejects %s with RdataError', (_, type, text) => {
    expect(() => encodeRdata(type, text)).toThrow(RdataError)
  })
})
