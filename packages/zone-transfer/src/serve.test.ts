import { decodeMessage, encodeQuery } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { NOW, key, soa } from './serve-fixture.ts'
import {
  TsigStreamVerifier,
  answerSignedQuery,
  answerTransfer,
  isTransferRequest,
  signMessage,
  splitTsig,
} from './index.ts'

const zone = {
  soa,
  records: () => [{ name: 'www.example.test', type: 1, ttl: 60, rdata: '192.0.2.1' }],
}
const find = (name: string) => (name === 'example.test' ? zone : null)

async function ask(name: string, type: 'AXFR' | 'IXFR' | 'A', signed: boolean, requireTsig = true) {
  const query = encodeQuery(name, type, { id: 9, rd: false })
  const request = signed ? (await signMessage(query, key, { time: NOW })).message : query
  const answer = await answerTransfer(request, find, { keys: [key], requireTsig, now: NOW })
  return answer.map((m) => ({
    ...decodeMessage(splitTsig(m).unsigned),
    signed: splitTsig(m).tsig !== null,
  }))
}

describe('answering a transfer request', () => {
  it.each([
    {
      what: 'a signed AXFR gets SOA, records, SOA, signed',
      name: 'example.test',
      signed: true,
      require: true,
      rcode: 0,
      answers: 3,
      isSigned: true,
    },
    {
      what: 'an unsigned AXFR is REFUSED when TSIG is required',
      name: 'example.test',
      signed: false,
      require: true,
      rcode: 5,
      answers: 0,
      isSigned: false,
    },
    {
      what: 'an unsigned AXFR is answered when TSIG is not required',
      name: 'example.test',
      signed: false,
      require: false,
      rcode: 0,
      answers: 3,
      isSigned: false,
    },
    {
      what: 'a zone we do not have is NOTAUTH, signed',
      name: 'other.test',
      signed: true,
      require: true,
      rcode: 9,
      answers: 0,
      isSigned: true,
    },
  ])('$what', async (c) => {
    const [reply, ...more] = await ask(c.name, 'AXFR', c.signed, c.require)
    expect(more).toEqual([])
    expect(reply).toMatchObject({ id: 9, rcode: c.rcode, signed: c.isSigned })
    expect(reply?.answer.length).toBe(c.answers)
  })

  it.each([
    ['CH is NOTAUTH (no zone of that class here)', 3, 9],
    ['ANY is FORMERR', 255, 1],
  ])('an AXFR of class %s, its question echoed', async (_what, klass, rcode) => {
    const query = encodeQuery('example.test', 'AXFR', { id: 9, rd: false, class: klass })
    const [reply, ...more] = await answerTransfer(query, find, {
      keys: [],
      requireTsig: false,
      now: NOW,
    })
    expect(more).toEqual([])
    const m = decodeMessage(reply!)
    expect(m).toMatchObject({ rcode, answer: [] })
    expect(m.question[0]?.class).toBe(klass)
  })

  it('an IXFR without the client SOA is FORMERR', async () => {
    const [reply] = await ask('example.test', 'IXFR', true)
    expect(reply?.rcode).toBe(1)
  })

  it.each([true, false])(
    'every message copies the request RD bit (RD %s), errors included',
    async (rd) => {
      const many = {
        soa,
        records: () =>
          Array.from({ length: 200 }, (_, i) => ({
            name: `host-${i}.example.test`,
            type: 1,
            ttl: 60,
            rdata: '192.0.2.1',
          })),
      }
      const findMany = (name: string) => (name === 'example.test' ? many : null)
      const replies = async (name: string, signed: boolean) => {
        const query = encodeQuery(name, 'AXFR', { id: 11, rd })
        const request = signed ? (await signMessage(query, key, { time: NOW })).message : query
        const out = await answerTransfer(request, findMany, {
          keys: [key],
          requireTsig: true,
          now: NOW,
          maxSize: 1024,
        })
        return out.map((m) => decodeMessage(splitTsig(m).unsigned))
      }
      const transfer = await replies('example.test', true)
      expect(transfer.length).toBeGreaterThan(3)
      expect(transfer.map((m) => m.rd)).toEqual(transfer.map(() => rd))
      // REFUSED (unsigned, TSIG required) and NOTAUTH (not our zone).
      for (const [name, signed] of [
        ['example.test', false],
        ['other.test', true],
      ] as const) {
        const [reply] = await replies(name, signed)
        expect(reply?.rcode).not.toBe(0)
        expect(reply?.rd).toBe(rd)
      }
    }
  )

  it('a transfer request with another opcode than QUERY (STATUS) is NOTIMP, signed', async () => {
    const query = encodeQuery('example.test', 'AXFR', { id: 12, opcode: 2 })
    const request = (await signMessage(query, key, { time: NOW })).message
    const [reply, ...rest] = await answerTransfer(request, find, {
      keys: [key],
      requireTsig: true,
      now: NOW,
    })
    expect(rest).toEqual([])
    expect(splitTsig(reply!).tsig).not.toBeNull()
    expect(decodeMessage(splitTsig(reply!).unsigned)).toMatchObject({ opcode: 2, rcode: 4 })
  })

  it('only AXFR and IXFR queries are transfer requests', () => {
    expect(isTransferRequest(encodeQuery('example.test', 'AXFR'))).toBe(true)
    expect(isTransferRequest(encodeQuery('example.test', 'IXFR'))).toBe(true)
    expect(isTransferRequest(encodeQuery('example.test', 'SOA'))).toBe(false)
    expect(isTransferRequest(new Uint8Array([1, 2, 3]))).toBe(false)
  })
})

describe('answering a signed ordinary query', () => {
  const resolve = async (unsigned: Uint8Array): Promise<Uint8Array> => {
    const q = decodeMessage(unsigned)
    const answer = encodeQuery(q.question[0]!.name, 'SOA', { id: q.id })
    answer[2] = 0x84
    return answer
  }

  it('is resolved without its TSIG and signed with the request MAC', async () => {
    const signed = await signMessage(encodeQuery('example.test', 'SOA', { id: 3 }), key, {
      time: NOW,
    })
    const answer = await answerSignedQuery(signed.message, [key], NOW, resolve)
    const verifier = new TsigStreamVerifier(key, signed.mac, () => NOW)
    await verifier.next(answer!)
    verifier.finish()
  })

  it('with a wrong MAC gets NOTAUTH and BADSIG, unresolved', async () => {
    const other = { ...key, secret: new Uint8Array([9]) }
    const signed = await signMessage(encodeQuery('example.test', 'SOA', { id: 3 }), other, {
      time: NOW,
    })
    const answer = await answerSignedQuery(signed.message, [key], NOW, () => {
      throw new Error('must not resolve')
    })
    expect(decodeMessage(splitTsig(answer!).unsigned).rcode).toBe(9)
    expect(splitTsig(answer!).tsig?.error).toBe(16)
  })

  it('an unsigned query is left to the caller', async () => {
    expect(
      await answerSignedQuery(encodeQuery('example.test', 'SOA'), [key], NOW, resolve)
    ).toBeNull()
  })
})
