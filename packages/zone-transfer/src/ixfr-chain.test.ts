import type { MessageRR, ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import { IxfrError, TransferError, TsigError, packTransfer, readTransfer } from './index.ts'

const ZONE = 'example.test'
const soaAt = (serial: number, name = ZONE): ResponseRR => ({
  name,
  type: 6,
  ttl: 3600,
  rdata: `ns1.${ZONE}. admin.${ZONE}. ${serial} 7200 3600 1209600 300`,
})
const a = (label: string, ip: string): ResponseRR => ({
  name: `${label}.${ZONE}`,
  type: 1,
  ttl: 60,
  rdata: ip,
})

async function* stream(messages: Uint8Array[]) {
  for (const m of messages) yield m
}

/** Reads `records` as the primary's answer to our IXFR from `ourSerial` (small messages). */
function readIxfr(records: ResponseRR[], ourSerial: number) {
  const got: string[] = []
  const messages = packTransfer(records, {
    id: 9,
    question: { name: ZONE, type: 251 },
    maxSize: 96,
  })
  const outcome = readTransfer(stream(messages), {
    request: { id: 9, zone: ZONE, kind: 'IXFR', mac: undefined },
    serial: ourSerial,
    now: () => 0,
    sink: (op, rr: MessageRR) => void got.push(`${op} ${rr.name} ${rr.data}`),
  })
  return { got, outcome }
}

/** Expects a malformed-IXFR rejection: an IxfrError (a TransferError), not a TSIG failure. */
async function expectBadIxfr(outcome: Promise<unknown>, message: RegExp) {
  const e = await outcome.then(
    () => null,
    (err: unknown) => err
  )
  expect(e).toBeInstanceOf(IxfrError)
  expect(e).toBeInstanceOf(TransferError)
  expect(e).not.toBeInstanceOf(TsigError)
  expect((e as Error).message).toMatch(message)
}

describe('IXFR difference sequences must chain from our serial to the final one (RFC 1995 §4)', () => {
  it('reads differences 1 -> 2 -> 3 in order when every step starts where the one before ended', async () => {
    const { got, outcome } = readIxfr(
      [
        soaAt(3),
        soaAt(1),
        a('x', '192.0.2.1'),
        soaAt(2),
        a('y', '192.0.2.2'),
        soaAt(2),
        a('y', '192.0.2.2'),
        soaAt(3),
        a('z', '192.0.2.3'),
        soaAt(3),
      ],
      1
    )
    expect(await outcome).toMatchObject({ kind: 'ixfr', records: 4 })
    expect(got).toEqual([
      'delete x.example.test. 192.0.2.1',
      'add y.example.test. 192.0.2.2',
      'delete y.example.test. 192.0.2.2',
      'add z.example.test. 192.0.2.3',
    ])
  })

  it('refuses differences that reach serial 2 but close with serial 3', async () => {
    const { outcome } = readIxfr(
      [soaAt(3), soaAt(1), a('x', '192.0.2.1'), soaAt(2), a('y', '192.0.2.2'), soaAt(3)],
      1
    )
    await expectBadIxfr(outcome, /ends at serial 3 but its differences reach only 2/)
  })

  it('refuses a step that does not start where the one before ended (1 -> 2, then 5 -> 3)', async () => {
    const { outcome } = readIxfr(
      [
        soaAt(3),
        soaAt(1),
        a('x', '192.0.2.1'),
        soaAt(2),
        a('y', '192.0.2.2'),
        soaAt(5),
        a('z', '192.0.2.3'),
        soaAt(3),
        a('w', '192.0.2.4'),
        soaAt(3),
      ],
      1
    )
    await expectBadIxfr(outcome, /from serial 5, not 2/)
  })

  it('refuses a first difference that is not from the serial we asked from', async () => {
    const { outcome } = readIxfr([soaAt(3), soaAt(2), soaAt(3), a('y', '192.0.2.2'), soaAt(3)], 1)
    await expectBadIxfr(outcome, /first difference is from serial 2, not ours \(1\)/)
  })

  it('refuses a difference whose new serial is not after its old one', async () => {
    const { outcome } = readIxfr([soaAt(3), soaAt(1), soaAt(1), a('y', '192.0.2.2'), soaAt(3)], 1)
    await expectBadIxfr(outcome, /goes from serial 1 to 1/)
  })

  it('refuses a difference that goes past the final serial', async () => {
    const { outcome } = readIxfr([soaAt(3), soaAt(1), soaAt(4), a('y', '192.0.2.2'), soaAt(3)], 1)
    await expectBadIxfr(outcome, /to serial 4, past 3/)
  })

  it('refuses a difference SOA that is not at the zone apex', async () => {
    const { outcome } = readIxfr(
      [soaAt(2), soaAt(1), soaAt(2, `sub.${ZONE}`), a('y', '192.0.2.2'), soaAt(2)],
      1
    )
    await expectBadIxfr(outcome, /SOA record at sub\.example\.test\., not at the zone's apex/)
  })
})
