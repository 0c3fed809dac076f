/**
 * @module A primary server for the incoming-transfer tests, reached through `transferFrom`'s
 * `connect`: it reads each request, answers it with the messages a test gives for its kind (SOA,
 * IXFR, AXFR), signed when a key is given and the request was, and lists what it was asked.
 */
import { decodeMessage, type ResponseRR } from '@edgedns/dns-wire'
import { packTransfer, splitTsig, TsigStreamSigner, type TsigKey } from '@edgedns/zone-transfer'
import type { Connect } from './tcp-transfer.ts'

export type Kind = 'SOA' | 'IXFR' | 'AXFR'
const TYPES: Record<number, Kind> = { 6: 'SOA', 251: 'IXFR', 252: 'AXFR' }
const CODES: Record<Kind, number> = { SOA: 6, IXFR: 251, AXFR: 252 }

/** What the fake primary answers a request of `kind` with. */
export type Answer = (kind: Kind, id: number) => Uint8Array[]

/**
 * A primary reached through `connect`; `asked` lists the requests in order. With `key`, answers
 * to signed SOA and AXFR requests are signed (an IXFR's are left unsigned).
 */
export function fakePrimary(answer: Answer, key?: TsigKey) {
  const asked: Kind[] = []
  let connections = 0
  let failing = 0
  const connect: Connect = () => {
    if (++connections === failing) throw new Error('connection refused')
    let deliver: (m: Uint8Array[]) => void = () => {}
    const replies = new Promise<Uint8Array[]>((r) => (deliver = r))
    const readable = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const m of await replies) {
          const framed = new Uint8Array(m.length + 2)
          framed.set([m.length >> 8, m.length & 0xff])
          framed.set(m, 2)
          controller.enqueue(framed)
        }
        controller.close()
      },
    })
    const writable = new WritableStream<Uint8Array>({
      async write(chunk) {
        const request = chunk.subarray(2)
        const m = decodeMessage(request)
        const kind = TYPES[m.question[0]!.typeCode]!
        asked.push(kind)
        const messages = answer(kind, m.id)
        const mac = splitTsig(request).tsig?.mac
        if (!key || !mac || kind === 'IXFR') return deliver(messages)
        const signer = new TsigStreamSigner(key, mac, Math.floor(Date.now() / 1000))
        deliver(await Promise.all(messages.map((msg) => signer.sign(msg))))
      },
    })
    return { readable, writable, close: async () => {} } as unknown as Socket
  }
  return {
    connect,
    asked,
    /** Connection `n` (counted from 1) fails. */
    failConnection: (n: number) => (failing = n),
  }
}

/** The primary's SOA of zone `zone` at `serial`. */
export const primarySoa = (zone: string, serial: number): ResponseRR => ({
  name: zone,
  type: 6,
  ttl: 3600,
  rdata: `ns.primary.test. hostmaster.primary.test. ${serial} 3600 600 86400 300`,
})

/** The primary's NS record at the apex of zone `zone` (every zone has one; zone-shape.ts). */
const primaryNs = (zone: string): ResponseRR => ({
  name: zone,
  type: 2,
  ttl: 3600,
  rdata: 'ns.primary.test.',
})

const isApexNs = (zone: string, rr: ResponseRR) =>
  rr.type === 2 &&
  rr.name.replace(/\.$/, '').toLowerCase() === zone.replace(/\.$/, '').toLowerCase()

/**
 * The messages answering a `kind` request of zone `zone` with `records`; an AXFR's gain the
 * apex NS record (`primaryNs`) after the opening SOA when they have none.
 */
export const pack = (zone: string, id: number, kind: Kind, records: ResponseRR[]) => {
  const whole =
    kind === 'AXFR' && records.length >= 2 && !records.some((rr) => isApexNs(zone, rr))
      ? [records[0]!, primaryNs(zone), ...records.slice(1)]
      : records
  return packTransfer(whole, { id, question: { name: zone, type: CODES[kind] } })
}

/** The answer's first message alone, with `rcode` (NOTIMP: 4, REFUSED: 5). */
export function withRcode(messages: Uint8Array[], rcode: number): Uint8Array[] {
  const m = Uint8Array.from(messages[0]!)
  m[3] = (m[3]! & 0xf0) | rcode
  return [m]
}
