import { decodeMessage, type ResponseRR } from '@edgedns/dns-wire'
import { packTransfer } from '@edgedns/zone-transfer'
import { describe, expect, it } from 'vitest'
import type { Primary } from './incoming-config.ts'
import { pullZone, type Connect } from './tcp-transfer.ts'

const ZONE = 'slow.example'
const primary: Primary = { id: 'p', ip: '192.0.2.53', port: 53, ixfr: false, key: null }
const soa: ResponseRR = {
  name: ZONE,
  type: 6,
  ttl: 3600,
  rdata: `ns.${ZONE}. admin.${ZONE}. 7 3600 600 86400 300`,
}
/** The apex NS record and `n - 1` A records. */
const records = (n: number): ResponseRR[] => [
  { name: ZONE, type: 2, ttl: 3600, rdata: `ns.${ZONE}.` },
  ...Array.from({ length: n - 1 }, (_, i) => ({
    name: `r${i}.${ZONE}`,
    type: 1,
    ttl: 300,
    rdata: `192.0.2.${i % 250}`,
  })),
]

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * A primary that answers the AXFR request with `count` records in small messages, waiting
 * `gapMs(i)` before message i.
 */
function slowPrimary(count: number, gapMs: (i: number) => number): Connect {
  return () => {
    let answer: (id: number) => void = () => {}
    const asked = new Promise<number>((r) => (answer = r))
    const readable = new ReadableStream<Uint8Array>({
      async start(controller) {
        const id = await asked
        const messages = packTransfer([soa, ...records(count), soa], {
          id,
          question: { name: ZONE, type: 252 },
          maxSize: 512,
        })
        for (const [i, m] of messages.entries()) {
          await sleep(gapMs(i))
          const framed = new Uint8Array(m.length + 2)
          framed[0] = m.length >> 8
          framed[1] = m.length & 0xff
          framed.set(m, 2)
          controller.enqueue(framed)
        }
        controller.close()
      },
    })
    const writable = new WritableStream<Uint8Array>({
      write(chunk) {
        answer(decodeMessage(chunk.subarray(2)).id)
      },
    })
    return { readable, writable, close: async () => {} } as unknown as Socket
  }
}

describe('pulling a zone over TCP', () => {
  it('completes a transfer that streams for longer than the idle limit as long as data keeps coming', async () => {
    let received = 0
    const outcome = await pullZone(
      primary,
      ZONE,
      null,
      async () => void received++,
      slowPrimary(1000, () => 20),
      { idleMs: 150, totalMs: 10_000 }
    )
    expect(outcome.kind).toBe('axfr')
    expect(received).toBe(1000)
  })

  it('gives up on a primary that stops sending for longer than the idle limit', async () => {
    const stalled = pullZone(
      primary,
      ZONE,
      null,
      async () => {},
      slowPrimary(200, (i) => (i === 3 ? 800 : 0)),
      { idleMs: 200, totalMs: 10_000 }
    )
    await expect(stalled).rejects.toThrow(/nothing received for 200 ms/)
  })

  it('gives up on a transfer that outlasts the whole-transfer cap though data keeps coming', async () => {
    const endless = pullZone(
      primary,
      ZONE,
      null,
      async () => {},
      slowPrimary(1000, () => 20),
      { idleMs: 150, totalMs: 300 }
    )
    await expect(endless).rejects.toThrow(/not complete within 300 ms/)
  })

  it('hands the sink nothing once it gives up, and reports the failure after the record being staged', async () => {
    let calls = 0
    let inFlight = 0
    const endless = pullZone(
      primary,
      ZONE,
      null,
      async () => {
        calls++
        inFlight++
        await sleep(5)
        inFlight--
      },
      slowPrimary(1000, () => 20),
      { idleMs: 5_000, totalMs: 300 }
    )
    await expect(endless).rejects.toThrow(/not complete within 300 ms/)
    expect(inFlight).toBe(0)
    const seen = calls
    await sleep(300)
    expect(calls).toBe(seen)
  })
})
