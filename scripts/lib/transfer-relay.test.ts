/**
 * The DNS front's transfer relay (transfer-relay.mjs) against a stand-in for the API's
 * `POST /client/v4/dns_transfer`: a secondary's signed SOA check over UDP is answered with the
 * relay's first message, and the relay's HTTP connection stays open for the next check (a
 * secondary checks the SOA on every NOTIFY; a new connection each time is set-up on its path).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTsigKey, signMessage } from '../../packages/zone-transfer/src/index.ts'
import { query, udpAsk } from './dns-client.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'

const KEY = parseTsigKey('relay-test-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')

let api: http.Server
let apiBase: string
/** The connections relayed queries came on. */
const sockets = new Set<unknown>()
let relayed = 0

beforeAll(async () => {
  // Answers each relayed query with it as an answer (QR set), framed as on TCP, and ends the
  // stream a moment later, as a streamed answer's end follows its last message.
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      relayed++
      sockets.add(req.socket)
      const answer = Buffer.concat(chunks)
      answer[2]! |= 0x80
      const length = Buffer.alloc(2)
      length.writeUInt16BE(answer.length)
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      res.write(Buffer.concat([length, answer]))
      setTimeout(() => res.end(), 5)
    })
  })
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r))
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
})
afterAll(() => api?.close())

async function signedSoaCheck(): Promise<Buffer> {
  const { message } = await signMessage(query('relay.test', 'SOA'), KEY, {
    time: Math.floor(Date.now() / 1000),
  })
  return Buffer.from(message)
}

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
})
