import packet from 'dns-packet'
import { RR_TYPES, TYPE_CODES } from '@edgedns/dns-facts'
import { describe, expect, it } from 'vitest'
import { DnsFormatError } from './errors.ts'
import { decodeMessage } from './message.ts'
import { decodeQuery } from './query.ts'
import { encodeQuery } from './query-encode.ts'
import { encodeRdata, SUPPORTED_TYPES } from './rdata/index.ts'
import { encodeResponse } from './response.ts'

describe('encodeQuery', () => {
  it('builds what decodeQuery and dns-packet read back', () => {
    const bytes = encodeQuery('WwW.Example.COM', 'AAAA', {
      id: 0x4242,
      cd: true,
      edns: { payload: 4096, do: true, options: [[10, new Uint8Array(8)]] },
    })
    expect(decodeQuery(bytes)).toEqual({
      id: 0x4242,
      opcode: 0,
      rd: true,
      cd: true,
      ad: false,
      question: { name: 'WwW.Example.COM', type: 28, class: 1 },
      edns: { udpPayloadSize: 4096, version: 0, do: true, options: [10] },
    })
    const d = packet.decode(Buffer.from(bytes))
    expect(d.questions).toEqual([{ name: 'WwW.Example.COM', type: 'AAAA', class: 'IN' }])
  })

  it('is byte for byte the benchmark query: id 0, RD, one OPT of 1232 without options', () => {
    const hex = Buffer.from(encodeQuery('a.b', 'A', { edns: { payload: 1232 } })).toString('hex')
    expect(hex).toBe(
      '000001000001000000000001' + '016101620000010001' + '0000290' + '4d0000000000000'
    )
  })

  it.each([
    ['an unknown type', 'x.test', 'NOPE', /unknown DNS type/],
    ['a label over 63 octets', `${'x'.repeat(64)}.test`, 'A', /label longer than 63/],
  ])('refuses %s with a RangeError', (_, name, type, message) => {
    expect(() => encodeQuery(name, type)).toThrow(RangeError)
    expect(() => encodeQuery(name, type)).toThrow(message)
  })
})

describe('decodeMessage', () => {
  it('reads header flags, the OPT record and the extended rcode (BADVERS)', () => {
    const bytes = encodeResponse({
      id: 7,
      rcode: 'BADVERS',
      aa: true,
      rd: true,
      question: { name: 'Q.test', type: 1, class: 1 },
      edns: { udpPayloadSize: 1232, do: true },
    })
    expect(decodeMessage(bytes)).toMatchObject({
      id: 7,
      qr: true,
      aa: true,
      rd: true,
      tc: false,
      rcode: 16,
      question: [{ name: 'Q.test.', type: 'A', typeCode: 1, class: 1 }],
      additional: [],
      opt: { payload: 1232, extendedRcode: 1, version: 0, do: true, options: [] },
    })
  })

  it('decodes every type of the table to text that encodes back to the same octets', () => {
    // Sample rdata per rdata kind; every type of a kind must round-trip through the table.
    const samples: Record<string, string> = {
      a: '192.0.2.1',
      aaaa: '2001:db8::ffff:1',
      name: 'Target.Example.NET.',
      'name-uncompressed': 'example.net.',
      soa: 'ns1.example.com. hostmaster.example.com. 1 7200 3600 1209600 300',
      hinfo: '"PC" "Linux"',
      mx: '10 mx.example.com.',
      txt: '"v=spf1 -all" "say \\"hi\\"\\\\" "héllo 😀" "\\000\\255"',
      loc: '52 22 23.000 N 4 53 32.000 E -2.00m 1.00m 10000.00m 10.00m',
      srv: '10 5 5060 sip.example.com.',
      naptr: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
      cert: '1 12345 8 AQIDBA==',
      ds: '12345 13 2 abcdef0123',
      sshfp: '4 2 abcdef01',
      dnskey: '257 3 13 AQIDBAU=',
      tlsa: '3 1 1 abcdef',
      openpgpkey: 'AQIDBA==',
      svcb: '1 svc.example.net. alpn="h2,h3" port=8443',
      uri: '10 1 "https://example.com/"',
      caa: '0 issue "letsencrypt.org"',
    }
    const types = RR_TYPES.filter((t) => SUPPORTED_TYPES.includes(t.code))
    expect(types.length).toBeGreaterThan(0)
    for (const t of types) {
      const rdata = samples[t.rdata]
      expect(rdata, `a sample for kind ${t.rdata}`).toBeDefined()
      const answer = [{ name: 'x.test', type: t.code, ttl: 60, rdata: rdata! }]
      const [rr] = decodeMessage(encodeResponse({ id: 1, rcode: 0, answer })).answer
      expect(rr).toMatchObject({ name: 'x.test.', type: t.name, typeCode: t.code, ttl: 60 })
      expect(encodeRdata(t.code, rr!.data), t.name).toEqual(encodeRdata(t.code, rdata!))
    }
  })

  it('shows types without a presentation codec in RFC 3597 form', () => {
    const answer = [{ name: 'x.test', type: 65280, ttl: 1, rdata: '\\# 2 abcd' }]
    const [rr] = decodeMessage(encodeResponse({ id: 1, rcode: 0, answer })).answer
    expect(rr).toMatchObject({ type: 'TYPE65280', data: '\\# 2 abcd' })
  })

  it('agrees with dns-packet on names, types and addresses', () => {
    const answer = [
      { name: 'www.example.com', type: TYPE_CODES.CNAME, ttl: 60, rdata: 'web.example.com.' },
      { name: 'web.example.com', type: TYPE_CODES.A, ttl: 60, rdata: '192.0.2.7' },
    ]
    const bytes = encodeResponse({ id: 9, rcode: 0, aa: true, answer })
    const ours = decodeMessage(bytes).answer.map((rr) => [rr.name, rr.type, rr.data])
    const theirs = packet
      .decode(Buffer.from(bytes))
      .answers!.map((rr) => [
        `${rr.name}.`,
        rr.type,
        rr.type === 'CNAME' ? `${(rr as { data: string }).data}.` : (rr as { data: string }).data,
      ])
    expect(ours).toEqual(theirs)
  })

  it.each([
    ['a truncated header', Uint8Array.from([0, 1, 0x81])],
    [
      'a truncated record',
      encodeResponse({
        id: 1,
        rcode: 0,
        answer: [{ name: 'a', type: 1, ttl: 1, rdata: '192.0.2.1' }],
      }).subarray(0, 20),
    ],
    ['trailing bytes', Uint8Array.from([...encodeQuery('a', 'A'), 0])],
  ])('throws DnsFormatError on %s', (_, bytes) => {
    expect(() => decodeMessage(bytes)).toThrow(DnsFormatError)
  })
})

describe('decodeMessage: owners through compression pointers', () => {
  const label = (text: string) => [text.length, ...[...text].map((c) => c.charCodeAt(0))]
  const a = [0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 1]
  const long = (c: string) => c.repeat(63)
  /** Answers: a 3-label owner at offset 12, then owners of `prefixes` + a pointer to it. */
  const message = (prefixes: string[][]) => {
    const first = [...label(long('a')), ...label(long('b')), ...label(long('c')), 0]
    const rest = prefixes.flatMap((p) => [...p.flatMap(label), 0xc0, 12, ...a])
    const header = [0, 1, 0x84, 0, 0, 0, 0, 1 + prefixes.length, 0, 0, 0, 0]
    return Uint8Array.from([...header, ...first, ...a, ...rest])
  }
  const suffix = `${long('a')}.${long('b')}.${long('c')}.`

  it('gives every owner its whole name when many point to one suffix', () => {
    const m = decodeMessage(message([['x'], ['y', 'z'], ['x']]))
    expect(m.answer.map((rr) => rr.name)).toEqual([
      suffix,
      `x.${suffix}`,
      `y.z.${suffix}`,
      `x.${suffix}`,
    ])
  })

  it('refuses an owner over 255 octets whose suffix was read before', () => {
    expect(() => decodeMessage(message([['x'], [long('d'), long('e')]]))).toThrow(DnsFormatError)
    expect(() => decodeMessage(message([['x'], [long('d'), long('e')]]))).toThrow(/255 octets/)
  })
})
