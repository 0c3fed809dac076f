import { decodeMessage, encodeQuery, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { answerTransfer, isTransferRequest, parseTsigKey, signMessage, splitTsig } from './index.ts'

const NOW = 1_800_000_000
const key = parseTsigKey('xfr-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')
const soa: ResponseRR = {
  name: 'example.test',
  type: 6,
  ttl: 3600,
  rdata: 'ns1.example.test. admin.example.test. 5 7200 3600 1209600 300',
}
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

  it('an IXFR without the client SOA is FORMERR', async () => {
    const [reply] = await ask('example.test', 'IXFR', true)
    expect(reply?.rcode).toBe(1)
  })

  it('only AXFR and IXFR queries are transfer requests', () => {
    expect(isTransferRequest(encodeQuery('example.test', 'AXFR'))).toBe(true)
    expect(isTransferRequest(encodeQuery('example.test', 'IXFR'))).toBe(true)
    expect(isTransferRequest(encodeQuery('example.test', 'SOA'))).toBe(false)
    expect(isTransferRequest(new Uint8Array([1, 2, 3]))).toBe(false)
  })
})
