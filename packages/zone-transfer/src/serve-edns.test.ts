import { decodeMessage, encodeQuery, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { NOW, key, soa } from './serve-fixture.ts'
import { TsigStreamVerifier, answerTransfer, signMessage } from './index.ts'

const records: ResponseRR[] = []
for (let i = 0; i < 3000; i++)
  records.push({
    name: `r${i}.example.test`,
    type: 16,
    ttl: 300,
    rdata: `"value ${i} of a long zone"`,
  })
const zone = { soa, records: () => records }

async function transfer(edns: { version?: number } | null, signed = true) {
  const query = encodeQuery('example.test', 'AXFR', { id: 9, rd: false, edns })
  const request = signed ? await signMessage(query, key, { time: NOW }) : null
  const answer = await answerTransfer(request?.message ?? query, () => zone, {
    keys: [key],
    requireTsig: signed,
    now: NOW,
  })
  if (!request) return answer.map(decodeMessage)
  const verifier = new TsigStreamVerifier(key, request.mac, () => NOW)
  const messages = []
  for (const m of answer) messages.push(decodeMessage(await verifier.next(m)))
  verifier.finish()
  return messages
}

describe('EDNS in transfer requests', () => {
  it.each([true, false])(
    'a request with EDNS gets OPT in the first message of the transfer only (signed: %s)',
    async (signed) => {
      const messages = await transfer({}, signed)
      expect(messages.length).toBeGreaterThan(1)
      expect(messages.map((m) => m.opt !== null)).toEqual(messages.map((_, i) => i === 0))
      expect(messages.flatMap((m) => m.answer)).toHaveLength(records.length + 2)
    }
  )

  it('a request without EDNS gets no OPT', async () => {
    expect((await transfer(null)).every((m) => m.opt === null)).toBe(true)
  })

  it('an EDNS version other than 0 is BADVERS, with OPT, signed', async () => {
    const [reply, ...more] = await transfer({ version: 1 })
    expect(more).toEqual([])
    expect(reply).toMatchObject({ rcode: 16, answer: [] })
    expect(reply?.opt?.version).toBe(0)
  })
})
