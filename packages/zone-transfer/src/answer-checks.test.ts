import {
  ByteWriter,
  encodeResponse,
  parseName,
  writeName,
  type MessageRR,
  type ResponseRR,
} from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { IxfrError, TransferError, packTransfer, readTransfer, soaOfAnswer } from './index.ts'

const ZONE = 'example.test'
const AXFR = 252
const soa = (name = ZONE): ResponseRR => ({
  name,
  type: 6,
  ttl: 3600,
  rdata: `ns1.${ZONE}. admin.${ZONE}. 7 7200 3600 1209600 300`,
})
const a = (label: string): ResponseRR => ({
  name: `${label}.${ZONE}`,
  type: 1,
  ttl: 60,
  rdata: '192.0.2.1',
})
const ns = (owner = ZONE): ResponseRR => ({
  name: owner,
  type: 2,
  ttl: 60,
  rdata: `ns.${ZONE}.`,
})
const question = (name = ZONE, type = AXFR, klass = 1) => ({ name, type, class: klass })

async function* stream(messages: Uint8Array[]) {
  for (const m of messages) yield m
}

function readAxfr(messages: Uint8Array[]) {
  const got: MessageRR[] = []
  const outcome = readTransfer(stream(messages), {
    request: { id: 5, zone: ZONE, kind: 'AXFR', mac: undefined },
    now: () => 0,
    sink: (_, rr) => void got.push(rr),
  })
  return { got, outcome }
}

const refused = (outcome: Promise<unknown>, message: RegExp) =>
  expect(outcome).rejects.toSatisfy(
    (e) => e instanceof TransferError && !(e instanceof IxfrError) && message.test(e.message)
  )

describe('every message of a transfer answer answers our request', () => {
  it('reads messages after the first whether they leave the question out or echo it', async () => {
    const first = packTransfer([soa(), ns(), a('a')], { id: 5, question: question() })
    const echoed = encodeResponse({ id: 5, rcode: 0, question: question(), answer: [a('b')] })
    const bare = encodeResponse({ id: 5, rcode: 0, question: null, answer: [a('c'), soa()] })
    const { got, outcome } = readAxfr([...first, echoed, bare])
    expect(await outcome).toMatchObject({ kind: 'axfr', records: 4 })
    expect(got.map((rr) => rr.name)).toEqual([
      'example.test.',
      'a.example.test.',
      'b.example.test.',
      'c.example.test.',
    ])
  })

  it('refuses a first message that does not echo the question', async () => {
    const m = encodeResponse({ id: 5, rcode: 0, question: null, answer: [soa(), a('a'), soa()] })
    await refused(readAxfr([m]).outcome, /does not echo our question/)
  })

  it('refuses an answer whose question names another zone', async () => {
    const m = packTransfer([soa(), soa()], { id: 5, question: { name: 'other.test', type: AXFR } })
    await refused(
      readAxfr(m).outcome,
      /an answer to other\.test\. AXFR class 1, not to example\.test\. AXFR IN/
    )
  })

  it('refuses an answer whose question asks another type', async () => {
    const m = packTransfer([soa(), soa()], { id: 5, question: { name: ZONE, type: 251 } })
    await refused(readAxfr(m).outcome, /an answer to example\.test\. IXFR/)
  })

  it('refuses an answer whose question has another class', async () => {
    const m = encodeResponse({
      id: 5,
      rcode: 0,
      question: question(ZONE, AXFR, 3),
      answer: [soa(), soa()],
    })
    await refused(readAxfr([m]).outcome, /class 3, not to example\.test\. AXFR IN/)
  })

  it('refuses a later message whose question differs from ours', async () => {
    const first = packTransfer([soa(), a('a')], { id: 5, question: question() })
    const later = packTransfer([soa()], { id: 5, question: { name: 'other.test', type: AXFR } })
    await refused(readAxfr([...first, ...later]).outcome, /an answer to other\.test\./)
  })

  it('refuses a message with several questions', async () => {
    const w = new ByteWriter()
    for (const n of [5, 0x8400, 2, 0, 0, 0]) w.u16(n)
    for (let i = 0; i < 2; i++) {
      writeName(w, parseName(ZONE))
      w.u16(AXFR)
      w.u16(1)
    }
    await refused(readAxfr([w.finish()]).outcome, /several questions/)
  })

  it('refuses an answer whose opcode is not QUERY', async () => {
    const m = encodeResponse({
      id: 5,
      opcode: 4,
      rcode: 0,
      question: question(),
      answer: [soa(), soa()],
    })
    await refused(readAxfr([m]).outcome, /opcode 4/)
  })

  it('refuses a message that is not a response (QR clear)', async () => {
    const m = packTransfer([soa(), soa()], { id: 5, question: question() })[0]!.slice()
    m[2]! &= 0x7f
    await refused(readAxfr([m]).outcome, /not an answer/)
  })
})

describe('the SOAs that open and close a transfer are at the zone apex', () => {
  it('refuses an answer that opens with a SOA below the apex', async () => {
    const m = packTransfer([soa(`sub.${ZONE}`), a('a'), soa()], { id: 5, question: question() })
    await refused(readAxfr(m).outcome, /SOA record at sub\.example\.test\., not at the zone's apex/)
  })

  it('refuses an answer that closes with a SOA below the apex', async () => {
    const m = packTransfer([soa(), a('a'), soa(`sub.${ZONE}`)], { id: 5, question: question() })
    await refused(readAxfr(m).outcome, /SOA record at sub\.example\.test\./)
  })

  it('reads apex SOAs whatever the case of their owner', async () => {
    const m = packTransfer([soa('Example.TEST'), ns('EXAMPLE.test'), soa('EXAMPLE.test')], {
      id: 5,
      question: question('EXAMPLE.Test'),
    })
    expect(await readAxfr(m).outcome).toMatchObject({ kind: 'axfr', records: 1 })
  })
})

describe('what a whole zone must hold', () => {
  it('refuses a zone without NS records at its apex, an empty one included', async () => {
    for (const body of [[a('a')], [], [ns(`a.${ZONE}`)]]) {
      const m = packTransfer([soa(), ...body, soa()], { id: 5, question: question() })
      await refused(readAxfr(m).outcome, /no NS records at its apex example\.test\./)
    }
  })

  it('refuses records of a class other than IN', async () => {
    for (const klass of [3, 254, 255]) {
      const m = packTransfer([soa(), ns(), a('a'), soa()], { id: 5, question: question() })
      // The A record's class (the two octets after its type) set to CH, NONE or ANY: found by its
      // type, class, TTL, length and address (1, 1, 60, 4, 192.0.2.1).
      const message = Uint8Array.from(m[0]!)
      const tail = [0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 1]
      const at = message.findIndex((_, i) => tail.every((b, j) => message[i + j] === b))
      expect(at).toBeGreaterThan(12)
      message[at + 2] = klass >> 8
      message[at + 3] = klass & 0xff
      await refused(readAxfr([message]).outcome, new RegExp(`class ${klass} at a\\.example`))
    }
  })
})

describe('the answer to our SOA query', () => {
  const answer = (q: ReturnType<typeof question> | null, opcode = 0) =>
    encodeResponse({ id: 8, opcode, rcode: 0, question: q, answer: [soa()] })

  it('reads the SOA from an answer echoing our question', () => {
    expect(soaOfAnswer(answer(question(ZONE, 6)), 8, ZONE).data).toMatch(/ 7 7200 /)
  })

  it('refuses an answer to another question, without a question, or with another opcode', () => {
    expect(() => soaOfAnswer(answer(question('other.test', 6)), 8, ZONE)).toThrow(/other\.test/)
    expect(() => soaOfAnswer(answer(question(ZONE, 1)), 8, ZONE)).toThrow(/example\.test\. A /)
    expect(() => soaOfAnswer(answer(null), 8, ZONE)).toThrow(/does not echo our question/)
    expect(() => soaOfAnswer(answer(question(ZONE, 6), 2), 8, ZONE)).toThrow(/opcode 2/)
  })
})
