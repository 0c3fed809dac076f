import * as packet from 'dns-packet'
import { describe, expect, it } from 'vitest'
import { EdgeDns } from '../client.ts'
import { decodeMessage, encodeQuery } from './message.ts'

describe('DoH wire codec', () => {
  it('encodes a query dns-packet reads back', () => {
    const q = packet.decode(Buffer.from(encodeQuery('WWW.Example.com.', 'AAAA')))
    expect(q.id).toBe(0)
    expect(q.flags! & 0x0100).toBe(0x0100)
    expect(q.questions).toEqual([{ name: 'WWW.Example.com', type: 'AAAA', class: 'IN' }])
    expect(q.additionals![0]!.type).toBe('OPT')
    expect(
      packet.decode(Buffer.from(encodeQuery('bücher.example', 'txt'))).questions![0]
    ).toMatchObject({ name: 'xn--bcher-kva.example', type: 'TXT' })
    expect(new DataView(encodeQuery('a.example', 'https').buffer).getUint16(12 + 11)).toBe(65)
  })

  it('decodes answers of the common types, following compression pointers', () => {
    const bytes = packet.encode({
      type: 'response',
      id: 0,
      flags: packet.AUTHORITATIVE_ANSWER | packet.RECURSION_DESIRED,
      questions: [{ type: 'A', name: 'example.com' }],
      answers: [
        { type: 'A', name: 'example.com', ttl: 300, data: '192.0.2.1' },
        { type: 'AAAA', name: 'example.com', ttl: 300, data: '2001:db8::1' },
        { type: 'CNAME', name: 'www.example.com', ttl: 60, data: 'example.com' },
        {
          type: 'MX',
          name: 'example.com',
          ttl: 60,
          data: { preference: 10, exchange: 'mail.example.com' },
        },
        { type: 'TXT', name: 'example.com', ttl: 60, data: ['v=spf1 -all', 'say "hi"'] },
        {
          type: 'SRV',
          name: '_sip._tcp.example.com',
          ttl: 60,
          data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
        },
        {
          type: 'CAA',
          name: 'example.com',
          ttl: 60,
          data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
        },
        {
          type: 'DS',
          name: 'sub.example.com',
          ttl: 60,
          data: { keyTag: 2371, algorithm: 13, digestType: 2, digest: Buffer.from('abcd', 'hex') },
        },
      ],
      authorities: [
        {
          type: 'SOA',
          name: 'example.com',
          ttl: 3600,
          data: {
            mname: 'ns1.example.com',
            rname: 'dns.example.com',
            serial: 7,
            refresh: 10000,
            retry: 2400,
            expire: 604800,
            minimum: 1800,
          },
        },
      ],
    })
    const m = decodeMessage(new Uint8Array(bytes))
    expect(m.flags).toMatchObject({ qr: true, aa: true, rd: true })
    expect(m.rcodeName).toBe('NOERROR')
    expect(m.answers.map((a) => [a.name, a.type, a.ttl, a.data])).toEqual([
      ['example.com.', 'A', 300, '192.0.2.1'],
      ['example.com.', 'AAAA', 300, '2001:db8::1'],
      ['www.example.com.', 'CNAME', 60, 'example.com.'],
      ['example.com.', 'MX', 60, '10 mail.example.com.'],
      ['example.com.', 'TXT', 60, '"v=spf1 -all" "say \\"hi\\""'],
      ['_sip._tcp.example.com.', 'SRV', 60, '10 5 5060 sip.example.com.'],
      ['example.com.', 'CAA', 60, '0 issue "letsencrypt.org"'],
      ['sub.example.com.', 'DS', 60, '2371 13 2 abcd'],
    ])
    expect(m.authority[0]!.data).toBe('ns1.example.com. dns.example.com. 7 10000 2400 604800 1800')
  })

  it('rejects truncated messages and compression loops', () => {
    expect(() => decodeMessage(new Uint8Array([0, 0, 0x81]))).toThrow(/truncated/)
    const loop = new Uint8Array([0, 0, 0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1])
    expect(() => decodeMessage(loop)).toThrow(/compression pointer/)
  })

  it('resolve() POSTs application/dns-message to /dns-query', async () => {
    let seen: { url: string; type: string | null } | undefined
    const fetch = async (url: string, init?: RequestInit) => {
      seen = { url, type: new Headers(init?.headers).get('content-type') }
      const query = packet.decode(Buffer.from(init!.body as Uint8Array))
      return new Response(
        packet.encode({
          type: 'response',
          id: 0,
          flags: packet.AUTHORITATIVE_ANSWER,
          questions: query.questions,
          answers: [{ type: 'A', name: 'a.example', ttl: 5, data: '192.0.2.9' }],
        })
      )
    }
    const client = new EdgeDns({ baseUrl: 'http://dns.test', fetch })
    const m = await client.resolve('a.example')
    expect(seen).toEqual({ url: 'http://dns.test/dns-query', type: 'application/dns-message' })
    expect(m.answers[0]!.data).toBe('192.0.2.9')
  })
})
