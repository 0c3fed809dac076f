/**
 * Messages the DNS front (dns-front.mjs) does not pass to the DoH endpoint or the API: a response
 * (QR set) is dropped over UDP and ignored over TCP, never answered (answering responses lets two
 * servers reflect a forged datagram at each other); an opcode other than QUERY is answered NOTIMP
 * by the front, even without a question (a DSO message, RFC 8490 §5.1); an unsigned IXFR over UDP
 * is answered with TC set so that the client asks again over TCP, and only over TCP reaches the
 * API.
 */
import net from 'node:net'
import packet from 'dns-packet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'
import { query, rcode, tcpAsk, truncatedBit, udpAsk } from './dns-client.ts'
import { framed, stubApi } from './relay-test-messages.ts'

/** Requests that reached the stand-in, by path. */
const reached = { doh: 0, transfer: 0 }
let api: { base: string; close(): void }
let front: { port: number; close(): void }

beforeAll(async () => {
  // DoH and the transfer relay both echo the message with QR set (the relay framed, as on TCP).
  api = await stubApi((req, body, res) => {
    body[2]! |= 0x80
    if (req.url?.endsWith('/dns-query')) {
      reached.doh++
      return void res.writeHead(200, { 'content-type': 'application/dns-message' }).end(body)
    }
    reached.transfer++
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(framed(body))
  })
  front = await startDnsFront({
    target: api.base,
    transfer: { api: api.base, token: 'relay-token' },
    cache: {},
    rrl: {},
  })
})
afterAll(() => {
  front?.close()
  api?.close()
})

/** `message` with QR set: a response. */
function asResponse(message: Buffer): Buffer {
  const out = Buffer.from(message)
  out[2]! |= 0x80
  return out
}

/** A message of `opcode` with RD set and no records at all (as a DSO message may be). */
function bareMessage(opcode: number, id = 0x4242): Buffer {
  const out = Buffer.alloc(12)
  out.writeUInt16BE(id, 0)
  out[2] = (opcode << 3) | 0x01
  return out
}

/** An IXFR query for `zone` from a secondary at `serial`, with an OPT record when `edns`. */
function ixfr(zone: string, serial: number, edns?: number): Buffer {
  const soa = { mname: `ns.${zone}`, rname: `host.${zone}`, serial }
  return packet.encode({
    id: 0x1234,
    type: 'query',
    questions: [{ name: zone, type: 'IXFR', class: 'IN' }],
    authorities: [{ name: zone, type: 'SOA', ttl: 0, data: soa }],
    additionals: edns
      ? [
          {
            name: '.',
            type: 'OPT',
            udpPayloadSize: edns,
            extendedRcode: 0,
            ednsVersion: 0,
            flags: 0,
            flag_do: false,
            options: [],
          } satisfies packet.OptAnswer,
        ]
      : [],
  } as packet.Packet)
}

/** The framed messages the front writes on one connection to `messages`, read for `ms`. */
function exchange(messages: Buffer[], ms: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(front.port, '127.0.0.1')
    let got = Buffer.alloc(0)
    socket.on('data', (c: Buffer) => (got = Buffer.concat([got, c])))
    socket.on('error', reject)
    socket.write(Buffer.concat(messages.map(framed)))
    setTimeout(() => {
      socket.destroy()
      const out: Buffer[] = []
      for (let at = 0; at + 2 <= got.length; at += 2 + got.readUInt16BE(at))
        out.push(got.subarray(at + 2, at + 2 + got.readUInt16BE(at)))
      resolve(out)
    }, ms)
  })
}

describe('responses', () => {
  it('drops a response over UDP: no answer, nothing asked upstream', async () => {
    const before = { ...reached }
    expect(await udpAsk(front.port, asResponse(query('www.test')), { timeoutMs: 300 })).toBeNull()
    expect(await udpAsk(front.port, asResponse(bareMessage(6)), { timeoutMs: 300 })).toBeNull()
    expect(await udpAsk(front.port, asResponse(ixfr('zone.test', 1)), { timeoutMs: 300 })).toBe(
      null
    )
    expect(reached).toEqual(before)
  })

  it('ignores a response over TCP and answers the query after it on the same connection', async () => {
    const before = { ...reached }
    const q = query('www.after-response.test')
    const answers = await exchange([asResponse(query('www.test')), q], 400)
    expect(answers.map((a) => a.readUInt16BE(0))).toEqual([q.readUInt16BE(0)])
    expect(reached.doh).toBe(before.doh + 1)
  })
})

describe('opcodes other than QUERY', () => {
  it('answers NOTIMP to a message of another opcode with no question, over UDP and TCP', async () => {
    for (const opcode of [1, 2, 6, 15]) {
      for (const ask of [udpAsk, tcpAsk]) {
        const answer = (await ask(front.port, bareMessage(opcode, 0x100 + opcode)))!
        expect(answer.readUInt16BE(0)).toBe(0x100 + opcode)
        expect((answer[2]! >> 3) & 0x0f).toBe(opcode)
        expect(answer[2]! & 0x80).toBe(0x80) // QR
        expect(rcode(answer)).toBe(4) // NOTIMP
        expect(answer.length).toBe(12)
      }
    }
  })

  it('answers NOTIMP with the question and an OPT record when the message had them', async () => {
    const update = query('zone.test', 'SOA', 1232)
    update[2] = (5 << 3) | (update[2]! & 0x87)
    const answer = (await udpAsk(front.port, update))!
    expect(rcode(answer)).toBe(4)
    const decoded = packet.decode(answer)
    expect(decoded.questions).toEqual([{ name: 'zone.test', type: 'SOA', class: 'IN' }])
    expect(decoded.additionals?.map((rr) => rr.type)).toEqual(['OPT'])
  })
})

describe('messages that cannot be read', () => {
  it('answers FORMERR without a question to another opcode whose question cannot be read, never echoing it', async () => {
    const header = (opcode: number, qd: number) => {
      const out = bareMessage(opcode, 0x777)
      out.writeUInt16BE(qd, 4)
      return out
    }
    // A 1,285-octet "name" (twenty 63-octet labels), a pointer, a question cut short.
    const long = Buffer.concat([
      header(15, 1),
      Buffer.concat(Array.from({ length: 20 }, () => Buffer.from(`?${'a'.repeat(63)}`))),
      Buffer.from([0, 0, 1, 0, 1]),
    ])
    const pointer = Buffer.concat([header(15, 5), Buffer.alloc(7, 0xff)])
    const short = Buffer.concat([header(3, 1), Buffer.from([3, 0x77, 0x77])])
    for (const message of [long, pointer, short]) {
      for (const ask of [udpAsk, tcpAsk]) {
        const answer = (await ask(front.port, message))!
        expect(answer.length).toBe(12)
        expect(answer.readUInt16BE(0)).toBe(0x777)
        expect(rcode(answer)).toBe(1) // FORMERR
        expect(answer.readUInt16BE(4)).toBe(0) // no question
      }
    }
  })

  it('drops a datagram shorter than a header without asking the DoH endpoint', async () => {
    const before = reached.doh
    for (let n = 0; n < 12; n++)
      expect(await udpAsk(front.port, Buffer.alloc(n, 1), { timeoutMs: 100 })).toBeNull()
    expect(reached.doh).toBe(before)
  })
})

describe('transfers over UDP', () => {
  it('answers an unsigned IXFR over UDP with TC and its question, without asking the API', async () => {
    const before = reached.transfer
    for (const edns of [undefined, 1232]) {
      const answer = (await udpAsk(front.port, ixfr('zone.test', 7, edns)))!
      expect(answer.readUInt16BE(0)).toBe(0x1234)
      expect(truncatedBit(answer)).toBe(true)
      expect(rcode(answer)).toBe(0)
      const decoded = packet.decode(answer)
      expect(decoded.questions).toEqual([{ name: 'zone.test', type: 'IXFR', class: 'IN' }])
      expect([decoded.answers, decoded.authorities]).toEqual([[], []])
      expect(decoded.additionals?.map((rr) => rr.type)).toEqual(edns ? ['OPT'] : [])
    }
    expect(reached.transfer).toBe(before)
  })

  it('answers an unsigned AXFR over UDP with FORMERR, without asking the API', async () => {
    const before = reached.transfer
    const axfr = packet.encode({
      id: 0x4321,
      type: 'query',
      questions: [{ name: 'zone.test', type: 'AXFR', class: 'IN' }],
    })
    const answer = (await udpAsk(front.port, axfr))!
    expect(answer.readUInt16BE(0)).toBe(0x4321)
    expect(rcode(answer)).toBe(1)
    expect(packet.decode(answer).questions).toEqual([
      { name: 'zone.test', type: 'AXFR', class: 'IN' },
    ])
    expect(reached.transfer).toBe(before)
  })

  it('relays the same IXFR over TCP', async () => {
    const before = reached.transfer
    const answer = await tcpAsk(front.port, ixfr('zone.test', 7))
    expect(truncatedBit(answer)).toBe(false)
    expect(reached.transfer).toBe(before + 1)
  })
})
