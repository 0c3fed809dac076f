/**
 * The DNS front's transfer relay (transfer-relay.mjs) against a stand-in for the API's
 * `POST /client/v4/dns_transfer`: a secondary's signed SOA check over UDP is answered with the
 * relay's first message, and the relay's HTTP connection stays open for the next check (a
 * secondary checks the SOA on every NOTIFY; a new connection each time is set-up on its path).
 * An unsigned AXFR or IXFR over UDP is answered by the front itself (FORMERR; TC), never relayed. Relayed UDP messages count against the sender's
 * network's share of upstream requests (those past it are logged).
 * Over TCP, a transfer streamed in many parts reaches the client whole and in order, and a request
 * the API refuses closes the client's connection. An API that does not start an answer in time, or
 * stops one midway, is given up (a slow client's pauses do not count against it).
 */
import { EventEmitter } from 'node:events'
import type http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTsigKey } from '../../packages/zone-transfer/src/index.ts'
import { query, udpAsk } from './dns-client.ts'
import {
  framed,
  notifyOf,
  signedSoaCheck as signedSoaCheckOf,
  stubApi,
} from './relay-test-messages.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { drained, startDnsFront } from './dns-front.mjs'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { notifyRelay } from './notify-relay.mjs'

const KEY = parseTsigKey('relay-test-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')

let api: { base: string; close(): void }
let apiBase: string
/** The connections relayed queries came on. */
const sockets = new Set<unknown>()
let relayed = 0
/** The transport header of each relayed query. */
const transports: (string | undefined)[] = []

beforeAll(async () => {
  // Answers each relayed query with it as an answer (QR set), framed as on TCP, and ends the
  // stream a moment later, as a streamed answer's end follows its last message.
  api = await stubApi((req, answer, res) => {
    relayed++
    sockets.add(req.socket)
    transports.push(req.headers['x-edgedns-client-transport'] as string | undefined)
    const name = String(answer.subarray(13, 13 + answer[12]!))
    if (name === 'refused') {
      res.writeHead(403, { 'content-type': 'application/json' })
      res.end('{"success":false}')
      return
    }
    answer[2]! |= 0x80
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    // A "transfer" is the answer COPIES times, written a copy at a time with pauses between.
    if (name === 'transfer') void writeCopies(res, framed(answer))
    else {
      res.write(framed(answer))
      setTimeout(() => res.end(), 5)
    }
  })
  apiBase = api.base
})
afterAll(() => api?.close())

/** How many messages the stand-in's "transfer" answer holds. */
const COPIES = 300

async function writeCopies(res: http.ServerResponse, copy: Buffer): Promise<void> {
  for (let i = 0; i < COPIES; i++) {
    if (!res.write(copy)) await new Promise((r) => res.once('drain', r))
    if (i % 50 === 0) await new Promise((r) => setTimeout(r, 2))
  }
  res.end()
}

/** Sends `message` over TCP and reads until `bytes` octets came or the front closed. */
function tcpRead(port: number, message: Buffer, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const got: Buffer[] = []
    let length = 0
    socket.on('data', (c: Buffer) => {
      got.push(c)
      length += c.length
      if (length >= bytes) socket.end()
    })
    socket.on('close', () => resolve(Buffer.concat(got)))
    socket.on('error', reject)
    socket.write(framed(message))
  })
}

const signedSoaCheck = (): Promise<Buffer> => signedSoaCheckOf('relay.test', KEY)

describe('the transfer relay over UDP', () => {
  it('answers signed SOA checks with the relay first message over one kept-alive connection', async () => {
    const front = await startDnsFront({
      target: apiBase,
      transfer: { api: apiBase, token: 'relay-token' },
    })
    try {
      const before = { connections: sockets.size, relayed }
      for (let i = 0; i < 5; i++) {
        const check = await signedSoaCheck()
        const answer = await udpAsk(front.port, check)
        expect(answer).not.toBeNull()
        expect(answer!.readUInt16BE(0)).toBe(check.readUInt16BE(0))
        expect(answer![2]! & 0x80).toBe(0x80)
        // The stand-in ends its answer a moment after the message; the next check comes later.
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(relayed - before.relayed).toBe(5)
      expect(sockets.size - before.connections).toBe(1)
    } finally {
      front.close()
    }
  })

  it('answers an unsigned AXFR that came over UDP itself, with FORMERR, without asking the API', async () => {
    const front = await startDnsFront({
      target: apiBase,
      transfer: { api: apiBase, token: 'relay-token' },
    })
    try {
      transports.length = 0
      const ask = query('relay.test', 'AXFR')
      const answer = await udpAsk(front.port, ask)
      expect(answer!.readUInt16BE(0)).toBe(ask.readUInt16BE(0))
      expect(answer![2]! & 0x80).toBe(0x80)
      expect(answer![3]! & 0x0f).toBe(1)
      expect(transports).toEqual([])
    } finally {
      front.close()
    }
  })

  it('answers an unsigned IXFR that came over UDP itself, with TC, without asking the API', async () => {
    const front = await startDnsFront({
      target: apiBase,
      transfer: { api: apiBase, token: 'relay-token' },
    })
    try {
      transports.length = 0
      const ask = query('relay.test', 'IXFR')
      const answer = await udpAsk(front.port, ask)
      expect(answer!.readUInt16BE(0)).toBe(ask.readUInt16BE(0))
      expect(answer![2]! & 0x82).toBe(0x82) // QR and TC
      expect(transports).toEqual([])
    } finally {
      front.close()
    }
  })
})

describe("the relays over UDP and the client network's share of upstream requests", () => {
  it("relays no more of a network's UDP messages than its share; the rest get no answer, logged", async () => {
    const lines: string[] = []
    const front = await startDnsFront({
      target: apiBase,
      transfer: { api: apiBase, token: 'relay-token' },
      upstream: { perClient: { rate: 2 } },
      refusals: { log: lines.push.bind(lines) },
    })
    try {
      const before = relayed
      // Three signed SOA checks at once from one network whose share is two a second.
      const checks = await Promise.all([0, 1, 2].map(() => signedSoaCheck()))
      const answers = await Promise.all(
        checks.map((c) => udpAsk(front.port, c, { timeoutMs: 300 }))
      )
      expect(answers.filter((a) => a !== null)).toHaveLength(2)
      expect(relayed - before).toBe(2)
      expect(lines).toEqual([
        'dns front: limits refused 1 (DNS_FRONT_UPSTREAM_CLIENT_RATE 1) from 127.0.0.0/24',
      ])
    } finally {
      front.close()
    }
  })
})

describe('the transfer relay over TCP', () => {
  it('copies a transfer streamed in many parts to the client whole and in order', async () => {
    const front = await startDnsFront({
      target: apiBase,
      transfer: { api: apiBase, token: 'relay-token' },
    })
    try {
      const axfr = query('transfer', 'AXFR')
      const one = axfr.length + 2
      const got = await tcpRead(front.port, axfr, COPIES * one)
      expect(got.length).toBe(COPIES * one)
      for (let at = 0; at < got.length; at += one) {
        expect(got.readUInt16BE(at)).toBe(axfr.length)
        expect(got.readUInt16BE(at + 2)).toBe(axfr.readUInt16BE(0))
        expect(got[at + 4]! & 0x80).toBe(0x80)
      }
    } finally {
      front.close()
    }
  })

  it('closes the connection without an answer when the API refuses the request', async () => {
    const front = await startDnsFront({
      target: apiBase,
      transfer: { api: apiBase, token: 'relay-token' },
    })
    try {
      expect((await tcpRead(front.port, query('refused', 'AXFR'), 1)).length).toBe(0)
    } finally {
      front.close()
    }
  })
})

describe('an API that stops answering', () => {
  /** Milliseconds the front in these tests gives the API. */
  const TIMEOUT_MS = 200
  /** Bytes of the "big" answer: far more than the sockets between the API and the client hold. */
  const BIG = 16 * 1024 * 1024
  let slow: { base: string; close(): void }
  let slowBase: string
  let front: { port: number; close(): void }

  beforeAll(async () => {
    // "hang": never answers; "stall": one message, then nothing; "big": BIG bytes at once;
    // a NOTIFY: never answered.
    slow = await stubApi((req, body, res) => {
      if (req.url?.endsWith('/dns_notify')) return
      const name = String(body.subarray(13, 13 + body[12]!))
      if (name === 'hang') return
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      if (name === 'stall') return void res.write(framed(body))
      void (async () => {
        const part = Buffer.alloc(65536)
        for (let sent = 0; sent < BIG; sent += part.length)
          if (!res.write(part)) await new Promise((r) => res.once('drain', r))
        res.end()
      })()
    })
    slowBase = slow.base
    front = await startDnsFront({
      target: slowBase,
      transfer: { api: slowBase, token: 'relay-token' },
      notify: { api: slowBase, token: 'relay-token' },
      relayTimeoutMs: TIMEOUT_MS,
    })
  })
  afterAll(() => {
    front?.close()
    slow?.close()
  })

  it('closes the client connection when the API does not start its answer in time', async () => {
    const started = Date.now()
    expect((await tcpRead(front.port, query('hang', 'AXFR'), 1)).length).toBe(0)
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 20)
  })

  it('closes the client connection when a transfer stops midway, after what came', async () => {
    const axfr = query('stall', 'AXFR')
    const got = await tcpRead(front.port, axfr, axfr.length + 3)
    // The one message the API sent, then the close (the client discards the broken transfer).
    expect(got.length).toBe(axfr.length + 2)
  })

  it('sends nothing over UDP when the API does not answer a relayed query in time', async () => {
    const check = await signedSoaCheckOf('hang', KEY)
    expect(await udpAsk(front.port, check, { timeoutMs: 3 * TIMEOUT_MS })).toBe(null)
  })

  it("does not count a slow client's pause against the API", async () => {
    const socket = net.connect(front.port, '127.0.0.1')
    let received = 0
    const whole = new Promise<void>((resolve) => {
      socket.on('data', (c: Buffer) => {
        received += c.length
        if (received >= BIG) resolve()
      })
      socket.on('close', () => resolve())
    })
    socket.write(framed(query('big', 'AXFR')))
    // The client stops reading for several relay timeouts once the answer is flowing.
    await new Promise((r) => socket.once('data', r))
    socket.pause()
    await new Promise((r) => setTimeout(r, 4 * TIMEOUT_MS))
    socket.resume()
    await whole
    socket.destroy()
    expect(received).toBe(BIG)
  })

  it('gives up a relayed NOTIFY the API does not answer in time (the primary sends it again)', async () => {
    const relay = notifyRelay({ target: slowBase, token: 't', timeoutMs: TIMEOUT_MS })
    const started = Date.now()
    await expect(relay(new Uint8Array(notifyOf('notified.test')), '127.0.0.1')).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})

describe('waiting for a client to drain', () => {
  it('leaves no listener behind, however many times a connection waits', async () => {
    const socket = new EventEmitter()
    for (let i = 0; i < 50; i++) {
      const wait = drained(socket)
      socket.emit('drain')
      await wait
    }
    expect([socket.listenerCount('drain'), socket.listenerCount('close')]).toEqual([0, 0])
    const gone = drained(socket)
    socket.emit('close')
    await gone
    expect([socket.listenerCount('drain'), socket.listenerCount('close')]).toEqual([0, 0])
  })
})
