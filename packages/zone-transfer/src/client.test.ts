import type { MessageRR, ResponseRR } from '@edgedns/dns-wire'
import { describe, expect, it } from 'vitest'
import {
  TransferError,
  TsigError,
  answerTransfer,
  parseTsigKey,
  readTransfer,
  transferRequest,
  type TransferZone,
} from './index.ts'

const NOW = 1_800_000_000
const key = parseTsigKey('xfr-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')
const soaAt = (serial: number): ResponseRR => ({
  name: 'example.test',
  type: 6,
  ttl: 3600,
  rdata: `ns1.example.test. admin.example.test. ${serial} 7200 3600 1209600 300`,
})
const www = (ip: string): ResponseRR => ({ name: 'www.example.test', type: 1, ttl: 60, rdata: ip })
const zone: TransferZone = {
  soa: soaAt(7),
  // The apex NS record (a zone without one is refused) and 299 A records.
  records: () => [
    { name: 'example.test', type: 2, ttl: 3600, rdata: 'ns1.example.test.' },
    ...Array.from({ length: 299 }, (_, i) => www(`192.0.2.${i % 250}`)),
  ],
  steps: [{ from: 5, to: 7, deleted: [www('192.0.2.1')], added: [www('198.51.100.1')] }],
}

/** The primary's answer to our request, as the messages of a TCP stream. */
async function answerFor(kind: 'AXFR' | 'IXFR', serial?: number, signed = true) {
  const req = await transferRequest({
    zone: 'example.test',
    kind,
    id: 42,
    now: NOW,
    ...(serial === undefined ? {} : { soa: soaAt(serial).rdata }),
    ...(signed ? { key } : {}),
  })
  const answer = await answerTransfer(req.message, () => zone, {
    keys: [key],
    requireTsig: signed,
    now: NOW,
    maxSize: 512,
  })
  return { req, answer }
}

async function* stream(messages: Uint8Array[]) {
  for (const m of messages) yield m
}

function read(
  kind: 'AXFR' | 'IXFR',
  req: { mac: Uint8Array | undefined },
  messages: Uint8Array[],
  serial?: number
) {
  const got: [string, MessageRR][] = []
  const outcome = readTransfer(stream(messages), {
    request: { id: 42, zone: 'example.test', kind, mac: req.mac },
    key,
    ...(serial === undefined ? {} : { serial }),
    now: () => NOW,
    sink: (op, rr) => void got.push([op, rr]),
  })
  return { got, outcome }
}

describe('reading a transfer as the secondary', () => {
  it('reads a signed AXFR over many messages, every record to the sink', async () => {
    const { req, answer } = await answerFor('AXFR')
    expect(answer.length).toBeGreaterThan(2)
    const { got, outcome } = read('AXFR', req, answer)
    expect(await outcome).toMatchObject({ kind: 'axfr', records: 300 })
    expect(got.every(([op, rr]) => op === 'add' && (rr.type === 'A' || rr.type === 'NS'))).toBe(
      true
    )
  })

  it('refuses a stream whose message was altered (BADSIG)', async () => {
    const { req, answer } = await answerFor('AXFR')
    const bad = answer.map((m) => m.slice())
    bad[1]![37]! ^= 1 // the TTL of its first record
    await expect(read('AXFR', req, bad).outcome).rejects.toBeInstanceOf(TsigError)
  })

  it('refuses an unsigned answer to a signed request', async () => {
    const { answer } = await answerFor('AXFR', undefined, false)
    const { req } = await answerFor('AXFR')
    await expect(read('AXFR', req, answer).outcome).rejects.toBeInstanceOf(TsigError)
  })

  it('refuses a stream that ends before the closing SOA', async () => {
    const { req, answer } = await answerFor('AXFR')
    await expect(read('AXFR', req, answer.slice(0, -1)).outcome).rejects.toBeInstanceOf(
      TransferError
    )
  })

  it('reads an incremental IXFR as deletions then additions', async () => {
    const { req, answer } = await answerFor('IXFR', 5)
    const { got, outcome } = read('IXFR', req, answer, 5)
    expect(await outcome).toMatchObject({ kind: 'ixfr', records: 2 })
    expect(got.map(([op, rr]) => `${op} ${rr.data}`)).toEqual([
      'delete 192.0.2.1',
      'add 198.51.100.1',
    ])
  })

  it('reads an IXFR answered with the SOA alone as current', async () => {
    const { req, answer } = await answerFor('IXFR', 7)
    const { got, outcome } = read('IXFR', req, answer, 7)
    expect(await outcome).toMatchObject({ kind: 'current' })
    expect(got).toEqual([])
  })

  it('reads an IXFR answered in the AXFR form as a whole zone', async () => {
    const { req, answer } = await answerFor('IXFR', 3)
    const { got, outcome } = read('IXFR', req, answer, 3)
    expect(await outcome).toMatchObject({ kind: 'axfr', records: 300 })
    expect(got).toHaveLength(300)
  })
})
