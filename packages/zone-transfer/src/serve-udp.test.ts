import { decodeMessage, encodeQuery } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { NOW, key, soa } from './serve-fixture.ts'
import { TsigStreamVerifier, answerTransfer, signMessage } from './index.ts'

const zone = {
  soa,
  records: () => [{ name: 'www.example.test', type: 1, ttl: 60, rdata: '192.0.2.1' }],
  steps: [
    {
      from: 4,
      to: 5,
      deleted: [],
      added: [{ name: 'www.example.test', type: 1, ttl: 60, rdata: '192.0.2.1' }],
    },
  ],
}

/** An IXFR query from `serial` (our SOA with that serial in the authority section). */
function ixfrQuery(serial: number): Uint8Array {
  const query = encodeQuery('example.test', 'IXFR', { id: 9, rd: false })
  const owner = [7, ...new TextEncoder().encode('example'), 4, ...new TextEncoder().encode('test')]
  const u32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
  const rdata = [0, 0, ...u32(serial), ...u32(0), ...u32(0), ...u32(0), ...u32(0)]
  const rr = [...owner, 0, 0, 6, 0, 1, ...u32(0), 0, rdata.length, ...rdata]
  const out = new Uint8Array([...query, ...rr])
  out[9] = 1
  return out
}

async function overUdp(query: Uint8Array) {
  const { message, mac } = await signMessage(query, key, { time: NOW })
  const answer = await answerTransfer(message, () => zone, {
    keys: [key],
    requireTsig: true,
    now: NOW,
    udp: true,
  })
  const verifier = new TsigStreamVerifier(key, mac, () => NOW)
  const messages = []
  for (const m of answer) messages.push(decodeMessage(await verifier.next(m)))
  verifier.finish()
  return messages
}

describe('transfer requests over UDP', () => {
  it('an AXFR is FORMERR, signed', async () => {
    const [reply, ...more] = await overUdp(encodeQuery('example.test', 'AXFR', { id: 9 }))
    expect(more).toEqual([])
    expect(reply).toMatchObject({ rcode: 1, answer: [] })
  })

  it.each([
    ['an older serial the log reaches', 4],
    ['an older serial the log does not reach', 1],
    ['the current serial', 5],
  ])('an IXFR from %s gets the single current SOA, signed', async (_what, serial) => {
    const [reply, ...more] = await overUdp(ixfrQuery(serial))
    expect(more).toEqual([])
    expect(reply?.rcode).toBe(0)
    expect(reply?.answer.map((rr) => rr.data)).toEqual([
      'ns1.example.test. admin.example.test. 5 7200 3600 1209600 300',
    ])
  })

  it('an IXFR without our SOA is still FORMERR', async () => {
    const [reply] = await overUdp(encodeQuery('example.test', 'IXFR', { id: 9 }))
    expect(reply?.rcode).toBe(1)
  })
})
