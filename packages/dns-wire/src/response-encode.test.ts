import { describe, expect, it } from 'vitest'
import { RdataError } from './errors.ts'
import { decodeQuery, type Query } from './query.ts'
import { encodeResponse, formErrReply, replyTo, type ResponseRR } from './response.ts'
import { decodeWithDnsPacket, hexOf } from './test-oracle.ts'

const query = (over: Partial<Query> = {}): Query => ({
  id: 0x1234,
  opcode: 0,
  rd: true,
  cd: false,
  ad: false,
  question: { name: 'WWW.Example.com', type: 1, class: 1 },
  edns: null,
  ...over,
})

const a = (n: number): ResponseRR => ({
  name: 'www.example.com',
  type: 1,
  ttl: 300,
  rdata: `192.0.2.${n}`,
})
const answer = (...rrs: ResponseRR[]) => ({
  rcode: 'NOERROR' as const,
  aa: true,
  answer: rrs,
  authority: [],
  additional: [],
})

describe('encodeResponse', () => {
  it('echoes id, RD, CD, opcode and the question in its original case', () => {
    const bytes = encodeResponse(replyTo(query({ cd: true }), answer(a(1))))
    const d = decodeWithDnsPacket(bytes)
    expect(d.id).toBe(0x1234)
    expect(d.flag_qr).toBe(true)
    expect(d.flag_aa).toBe(true)
    expect(d.flag_rd).toBe(true)
    expect(d.flag_cd).toBe(true)
    expect(d.flag_ra).toBe(false)
    expect(d.questions).toEqual([{ name: 'WWW.Example.com', type: 'A', class: 'IN' }])
    expect(d.answers?.[0]).toMatchObject({
      name: 'WWW.Example.com',
      type: 'A',
      ttl: 300,
      data: '192.0.2.1',
    })
  })

  it('compresses answer names against the question', () => {
    const bytes = encodeResponse(replyTo(query(), answer(a(1), a(2))))
    // header 12 + question 17+4; each answer: pointer 2 + 10 fixed + 4 rdata
    expect(bytes.length).toBe(12 + 21 + 2 * 16)
    expect(hexOf(bytes.subarray(33, 35))).toBe('c00c')
  })

  it('sets TC when the result says records were left out, even though the rest fits', () => {
    const d = decodeWithDnsPacket(
      encodeResponse(replyTo(query(), { ...answer(a(1)), tc: true }, { maxSize: 65535 }))
    )
    expect(d.flag_tc).toBe(true)
    expect(d.answers).toHaveLength(1)
    const whole = decodeWithDnsPacket(
      encodeResponse(replyTo(query(), answer(a(1)), { maxSize: 65535 }))
    )
    expect(whole.flag_tc).toBe(false)
  })

  it('can leave names uncompressed', () => {
    const init = { ...replyTo(query(), answer(a(1))), compress: false }
    expect(encodeResponse(init).length).toBe(12 + 21 + 17 + 14)
  })

  it('sets the rcode and SOA authority for NXDOMAIN', () => {
    const soa: ResponseRR = {
      name: 'example.com',
      type: 6,
      ttl: 300,
      rdata: 'ns1.example.com. hostmaster.example.com. 1 7200 3600 1209600 300',
    }
    const r = { rcode: 'NXDOMAIN' as const, aa: true, answer: [], authority: [soa], additional: [] }
    const d = decodeWithDnsPacket(encodeResponse(replyTo(query(), r)))
    expect(d.rcode).toBe('NXDOMAIN')
    // compressed against the question, so the owner takes the question's case
    expect(d.authorities?.[0]).toMatchObject({ name: 'Example.com', type: 'SOA', ttl: 300 })
  })

  it('echoes OPT with payload 1232 and the DO bit when the query had EDNS', () => {
    const q = query({ edns: { udpPayloadSize: 4096, version: 0, do: true, options: [] } })
    const d = decodeWithDnsPacket(encodeResponse(replyTo(q, answer(a(1)))))
    const opt = d.additionals?.[0] as { type: string; udpPayloadSize: number; flag_do: boolean }
    expect(d.additionals).toHaveLength(1)
    expect(opt.type).toBe('OPT')
    expect(opt.udpPayloadSize).toBe(1232)
    expect(opt.flag_do).toBe(true)
  })

  it('answers BADVERS for an unknown EDNS version', () => {
    const q = query({ edns: { udpPayloadSize: 1232, version: 1, do: false, options: [] } })
    const bytes = encodeResponse(replyTo(q, answer(a(1))))
    const d = decodeWithDnsPacket(bytes)
    expect(d.answers).toHaveLength(0)
    expect(bytes[3]! & 0xf).toBe(0)
    const opt = d.additionals?.[0] as { extendedRcode: number }
    expect(opt.extendedRcode).toBe(1) // 16 >> 4
  })

  it('answers NOTIMP for opcodes other than QUERY', () => {
    const d = decodeWithDnsPacket(encodeResponse(replyTo(query({ opcode: 2 }), answer(a(1)))))
    expect(d.rcode).toBe('NOTIMP')
    expect(d.opcode).toBe('STATUS')
    expect(d.answers).toHaveLength(0)
  })

  it('refuses an extended rcode without EDNS', () => {
    expect(() => encodeResponse({ id: 1, rcode: 'BADVERS' })).toThrow(RangeError)
  })

  it('builds a FORMERR reply from a partial header', () => {
    const d = decodeWithDnsPacket(formErrReply({ id: 7, opcode: 0, rd: true, cd: false }))
    expect(d).toMatchObject({ id: 7, rcode: 'FORMERR', flag_rd: true, questions: [] })
  })

  it('raises RdataError for stored data it cannot encode', () => {
    const bad = { ...a(1), rdata: '999.0.0.1' }
    expect(() => encodeResponse(replyTo(query(), answer(bad)))).toThrow(RdataError)
    const long = { ...a(1), name: `${'x'.repeat(64)}.example.com` }
    expect(() => encodeResponse(replyTo(query(), answer(long)))).toThrow(RdataError)
  })
})

describe('truncation', () => {
  const txt = (i: number): ResponseRR => ({
    name: `t${i}.example.com`,
    type: 16,
    ttl: 60,
    rdata: `"${'x'.repeat(100)}"`,
  })
  const many = Array.from({ length: 10 }, (_, i) => txt(i))

  it('limits a response without EDNS to 512 octets and sets TC', () => {
    const bytes = encodeResponse(replyTo(query(), answer(...many)))
    expect(bytes.length).toBeLessThanOrEqual(512)
    const d = decodeWithDnsPacket(bytes)
    expect(d.flag_tc).toBe(true)
    expect(d.answers!.length).toBeGreaterThan(0)
    expect(d.answers!.length).toBeLessThan(10)
  })

  it('uses min(client payload, 1232) with EDNS and keeps room for OPT', () => {
    const q = query({ edns: { udpPayloadSize: 4096, version: 0, do: false, options: [] } })
    const big = Array.from({ length: 20 }, (_, i) => txt(i))
    const bytes = encodeResponse(replyTo(q, answer(...big)))
    expect(bytes.length).toBeLessThanOrEqual(1232)
    const d = decodeWithDnsPacket(bytes)
    expect(d.flag_tc).toBe(true)
    expect(d.additionals?.[0]?.type).toBe('OPT')
  })

  it('does not truncate when everything fits', () => {
    const d = decodeWithDnsPacket(encodeResponse(replyTo(query(), answer(txt(1), txt(2)))))
    expect(d.flag_tc).toBe(false)
    expect(d.answers).toHaveLength(2)
  })

  it('drops whole RRsets, never part of one', () => {
    const set = Array.from({ length: 6 }, () => ({ ...txt(0) }))
    set.forEach((rr, i) => (rr.rdata = `"${String(i).repeat(100)}"`))
    const d = decodeWithDnsPacket(encodeResponse(replyTo(query(), answer(a(1), ...set))))
    expect(d.answers).toHaveLength(1)
    expect(d.flag_tc).toBe(true)
  })

  it('lets a DoH caller lift the limit', () => {
    const bytes = encodeResponse(replyTo(query(), answer(...many), { maxSize: 65535 }))
    expect(decodeWithDnsPacket(bytes).answers).toHaveLength(10)
  })

  it('decodes back a response to a real query', () => {
    const wire = 'abcd01000001000000000000 03777777 076578616d706c65 03636f6d00 00010001'
    const q = decodeQuery(new Uint8Array(Buffer.from(wire.replace(/ /g, ''), 'hex')))
    const d = decodeWithDnsPacket(encodeResponse(replyTo(q, answer(a(9)))))
    expect(d.answers?.[0]?.data).toBe('192.0.2.9')
  })
})

describe('EDNS in answers', () => {
  /** A query with one OPT record carrying `options` (code, data) and DO set, `qd` questions. */
  function queryWithOpt(options: [number, number][], qd = 1): Uint8Array {
    const head = Buffer.from([0, 9, 1, 0, 0, qd, 0, 0, 0, 0, 0, 1])
    const question = Buffer.from('03777777076578616d706c6503636f6d0000010001', 'hex')
    const opts = Buffer.concat(
      options.map(([code, n]) => {
        const o = Buffer.alloc(4 + n)
        o.writeUInt16BE(code, 0)
        o.writeUInt16BE(n, 2)
        return o
      })
    )
    const opt = Buffer.from([0, 0, 41, 4, 0xd0, 0, 0, 0x80, 0, 0, 0])
    opt.writeUInt16BE(opts.length, 9)
    return new Uint8Array(Buffer.concat([head, ...Array(qd).fill(question), opt, opts]))
  }

  it('pads an answer to a multiple of 468 octets when the query asked for padding, and only then', () => {
    const padded = encodeResponse(replyTo(decodeQuery(queryWithOpt([[12, 40]])), answer(a(1))))
    expect(padded.length).toBe(468)
    const opt = decodeWithDnsPacket(padded).additionals?.find((rr) => rr.type === 'OPT') as any
    expect(opt.options.map((o: { code: number }) => o.code)).toEqual([12])
    // Without the option (here a cookie): no padding.
    const plain = encodeResponse(replyTo(decodeQuery(queryWithOpt([[10, 8]])), answer(a(1))))
    expect(plain.length).toBeLessThan(100)
    // An answer longer than a block goes to the next multiple, within the size allowed.
    const many = Array.from({ length: 40 }, (_, i) => a(i))
    const q = decodeQuery(queryWithOpt([[12, 0]]))
    expect(encodeResponse(replyTo(q, answer(...many), { maxSize: 65535 })).length).toBe(936)
    expect(
      encodeResponse(replyTo(q, answer(...many), { maxSize: 700 })).length
    ).toBeLessThanOrEqual(700)
  })

  it('answers FORMERR with an OPT record to a query refused for its question count alone', () => {
    for (const qd of [0, 2]) {
      let header
      try {
        decodeQuery(queryWithOpt([], qd))
      } catch (e) {
        header = (e as { header: Parameters<typeof formErrReply>[0] }).header
      }
      const d = decodeWithDnsPacket(formErrReply(header!))
      expect(d).toMatchObject({ id: 9, rcode: 'FORMERR', questions: [] })
      expect(d.additionals?.map((rr) => rr.type)).toEqual(['OPT'])
    }
  })

  it('never marks an answer to QCLASS ANY authoritative', () => {
    const any = query({ question: { name: 'www.example.com', type: 1, class: 255 } })
    expect(decodeWithDnsPacket(encodeResponse(replyTo(any, answer(a(1))))).flag_aa).toBe(false)
    expect(decodeWithDnsPacket(encodeResponse(replyTo(query(), answer(a(1))))).flag_aa).toBe(true)
  })
})
