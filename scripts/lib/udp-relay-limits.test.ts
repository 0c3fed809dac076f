/**
 * The caps on what the DNS front relays to the API over UDP (front-udp-relay.mjs): against a
 * stand-in for the API that holds its answers until the test lets them go, signed queries and
 * NOTIFY over UDP are relayed while the sender's network and the front have room for them in
 * flight, and past either are dropped (no answer, as a loaded server does) and logged by the
 * setting that dropped them; a relay's slot frees once its answer is in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTsigKey } from '../../packages/zone-transfer/src/index.ts'
import { rcode, udpAsk } from './dns-client.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'
import {
  framed,
  notifyOf,
  signedSoaCheck,
  stubApi,
  until as untilWithin,
} from './relay-test-messages.ts'

const KEY = parseTsigKey('udp-limits-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')

let api: Awaited<ReturnType<typeof stubApi>>
let apiBase: string
/** Relayed requests that reached the stand-in (transfers and NOTIFY). */
let reached = 0
/** Answers the stand-in holds back until the test lets them go. */
let holds: (() => void)[] = []
const release = () => {
  for (const go of holds) go()
  holds = []
}

beforeAll(async () => {
  // A signed query is answered with itself (QR set), framed as on TCP; a NOTIFY with its echo.
  api = await stubApi((req, body, res) => {
    reached++
    const notify = req.url?.endsWith('/dns_notify')
    const message = notify ? Buffer.from(JSON.parse(String(body)).message, 'base64') : body
    message[2]! |= 0x80
    holds.push(() => {
      if (notify) {
        res.writeHead(200, { 'content-type': 'application/json' })
        const result = { message: message.toString('base64') }
        return void res.end(JSON.stringify({ success: true, result }))
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      res.end(framed(message))
    })
  })
  apiBase = api.base
})
afterAll(() => {
  release()
  api?.close()
})

const signedSoaCheckOf = (name: string) => signedSoaCheck(name, KEY)
const until = (check: () => boolean, ms = 10_000) => untilWithin(check, ms)

describe('relays over UDP', () => {
  it('are held in flight per network and in total, the rest dropped and logged', async () => {
    // A line for every refusal (no interval), so that each drop can be waited for.
    const lines: string[] = []
    const front = await startDnsFront({
      target: apiBase,
      transfer: { api: apiBase, token: 'relay-token' },
      notify: { api: apiBase, token: 'relay-token' },
      udpRelayLimits: { clientConcurrency: 2, concurrency: 3 },
      refusals: { intervalMs: 0, log: lines.push.bind(lines) },
    })
    const ask = (message: Buffer, from = '127.0.0.1', timeoutMs = 15_000) =>
      udpAsk(front.port, message, { from, timeoutMs })
    try {
      const relayed = [ask(await signedSoaCheckOf('a')), ask(notifyOf('b'))]
      await until(() => reached === 2)
      // The network has two in flight: a third message from it is dropped, not relayed.
      const dropped = ask(await signedSoaCheckOf('c'), '127.0.0.9', 1000)
      await until(() => lines.length === 1)
      expect(lines[0]).toBe(
        'dns front: limits refused 1 (DNS_FRONT_RELAY_UDP_CLIENT_CONCURRENCY 1) from 127.0.0.0/24'
      )
      relayed.push(ask(await signedSoaCheckOf('d'), '127.0.1.1'))
      await until(() => reached === 3)
      // Three in flight in all: another network's NOTIFY is dropped too.
      const droppedToo = ask(notifyOf('e'), '127.0.2.1', 1000)
      await until(() => lines.length === 2)
      expect(lines[1]).toBe(
        'dns front: limits refused 1 (DNS_FRONT_RELAY_UDP_CONCURRENCY 1) from 127.0.2.0/24'
      )
      expect(reached).toBe(3)
      release()
      const answers = await Promise.all(relayed)
      expect(answers.map((a) => a && rcode(a))).toEqual([0, 0, 0])
      expect(answers.map((a) => a && a[2]! & 0x80)).toEqual([0x80, 0x80, 0x80])
      // The slots are free again once the answers are in.
      const again = ask(await signedSoaCheckOf('f'))
      await until(() => reached === 4)
      release()
      expect(await again).not.toBeNull()
      // The dropped ones were never answered (the API never saw them).
      expect(await Promise.all([dropped, droppedToo])).toEqual([null, null])
      expect(reached).toBe(4)
    } finally {
      release()
      front.close()
    }
  })
})
