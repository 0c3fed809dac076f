import { decodeMessage, encodeResponse, type ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { OPCODE_NOTIFY, notifyMessage, parseNotifyReply } from './index.ts'

const soa: ResponseRR = {
  name: 'example.test',
  type: 6,
  ttl: 3600,
  rdata: 'ns1.example.test. admin.example.test. 42 7200 3600 1209600 300',
}

describe('NOTIFY messages', () => {
  it('asks as a request (QR clear, AA set) with the zone SOA question and the new SOA', () => {
    const m = notifyMessage(77, soa)
    expect(m[2]! & 0x80).toBe(0)
    expect(m[2]! & 0x04).toBe(0x04)
    const decoded = decodeMessage(m)
    expect(decoded.id).toBe(77)
    expect(decoded.opcode).toBe(OPCODE_NOTIFY)
    expect(decoded.question).toMatchObject([{ name: 'example.test.', typeCode: 6 }])
    expect(decoded.answer).toHaveLength(1)
    expect(decoded.answer[0]!.data).toContain(' 42 ')
  })

  it('reads the id and rcode of a NOTIFY response, and refuses anything else', () => {
    const reply = encodeResponse({
      id: 77,
      opcode: OPCODE_NOTIFY,
      rcode: 'REFUSED',
      question: { name: 'example.test', type: 6, class: 1 },
    })
    expect(parseNotifyReply(reply)).toEqual({ id: 77, rcode: 5 })
    expect(() => parseNotifyReply(notifyMessage(1, soa))).toThrow(/NOTIFY response/)
    const query = encodeResponse({ id: 1, rcode: 0, question: null })
    expect(() => parseNotifyReply(query)).toThrow(/NOTIFY response/)
  })
})
