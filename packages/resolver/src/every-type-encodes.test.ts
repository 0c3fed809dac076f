import { decodeQuery, encodeResponse, replyTo, typeFromName } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { resolve } from './resolve.ts'
import { zones } from './test-helpers/zone.ts'

const RECORDS: [string, string][] = [
  ['A', '192.0.2.1'],
  ['AAAA', '2001:db8::1'],
  ['MX', '10 mail.example.org.'],
  ['TXT', '"v=spf1 -all"'],
  ['SRV', '10 5 5060 sip.example.org.'],
  ['CAA', '0 issue "letsencrypt.org"'],
  ['CERT', 'PGP 0 RSASHA256 AQID'],
  ['DNSKEY', '257 3 13 AQID'],
  ['DS', '12345 13 2 ABCDEF'],
  ['HTTPS', '1 . alpn="h2,h3" ipv4hint=192.0.2.1'],
  ['SVCB', '1 svc.example.org. port=8443'],
  ['LOC', '52 22 23.000 N 4 53 32.000 E -2.00m'],
  ['NAPTR', '100 10 "S" "SIP+D2U" "" _sip._udp.example.org.'],
  ['OPENPGPKEY', 'AQIDBA=='],
  ['SMIMEA', '3 0 1 ABCDEF'],
  ['SSHFP', '4 2 ABCDEF'],
  ['TLSA', '3 1 1 ABCDEF'],
  ['URI', '10 1 "https://example.org/"'],
  ['PTR', 'host.example.org.'],
]

const view = zones({
  'example.org': RECORDS.map(
    ([type, rdata]) => `t-${type.toLowerCase()} 300 IN ${type} ${rdata}`
  ).join('\n'),
})

const QUERY = decodeQuery(
  new Uint8Array(
    Buffer.from('000100000001000000000000 01 78 00 0001 0001'.replace(/ /g, ''), 'hex')
  )
)

describe('resolver output encodes on the wire', () => {
  it.each(RECORDS)('%s', async (type) => {
    const code = typeFromName(type) as number
    const r = await resolve(view, { name: `t-${type.toLowerCase()}.example.org`, type: code })
    expect(r.answer).toHaveLength(1)
    const q = {
      ...QUERY,
      question: { name: `t-${type.toLowerCase()}.example.org`, type: code, class: 1 },
    }
    const bytes = encodeResponse(replyTo(q, r))
    expect(bytes[7]).toBe(1) // ANCOUNT
  })
})
