/**
 * The limits on what the DNS front relays to the API over TCP (front-relay-limits.mjs, applied in
 * dns-front.mjs), on their own clock and against a stand-in for the API that counts what reaches
 * it: a flood of transfer requests and signed queries from one client network reaches the API at
 * most that network's rate, the rest answered SERVFAIL at once on connections that stay open (and
 * logged in one line), a NOTIFY past it goes unanswered, an IXFR past it ends its connection
 * unanswered, and another network is still served; relays in flight are held
 * to their per-network and total caps, and a slot is free again once its transfer ends. The
 * defaults let a secondary that pulls many zones at once (the catalog cold-start bench runs BIND
 * with `transfers-in 64`) through untouched.
 */
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTsigKey } from '../../packages/zone-transfer/src/index.ts'
import { query, rcode } from './dns-client.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'
import {
  framed,
  notifyOf,
  signedSoaCheck,
  stubApi,
  until as untilWithin,
} from './relay-test-messages.ts'
// @ts-expect-error plain ESM module
import { relayLimiter } from './front-relay-limits.mjs'

const KEY = parseTsigKey('limits-test-key:c2VjcmV0LXNoYTI1Ni1rZXktbWF0ZXJpYWw=')

interface Front {
  port: number
  close(): void
}

let api: Awaited<ReturnType<typeof stubApi>>
let apiBase: string
/** Requests that reached the stand-in, by path and first label of the question. */
const reached: { path: string; name: string }[] = []
/** Answers the stand-in holds back ("held" transfers) until the test lets them go. */
let holds: (() => void)[] = []
const release = () => {
  for (const go of holds) go()
  holds = []
}
const count = (path: string, name?: string) =>
  reached.filter((r) => r.path.endsWith(path) && (name === undefined || r.name === name)).length

beforeAll(async () => {
  // Each transfer request is answered with itself as the answer (QR set), framed as on TCP; a
  // "held" one only once released, a "slow" one after 100 ms. A NOTIFY gets its own echo.
  api = await stubApi((req, body, res) => {
    if (req.url?.endsWith('/dns_notify')) {
      const message = Buffer.from(JSON.parse(String(body)).message, 'base64')
      reached.push({ path: req.url, name: String(message.subarray(13, 13 + message[12]!)) })
      message[2]! |= 0x80
      res.writeHead(200, { 'content-type': 'application/json' })
      return void res.end(
        JSON.stringify({ success: true, result: { message: message.toString('base64') } })
      )
    }
    const name = String(body.subarray(13, 13 + body[12]!))
    reached.push({ path: req.url ?? '', name })
    body[2]! |= 0x80
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      res.end(framed(body))
    }
    if (name === 'held') holds.push(answer)
    else if (name === 'slow') setTimeout(answer, 100)
    else answer()
  })
  apiBase = api.base
})
afterAll(() => {
  release()
  api?.close()
})

function startFront(relayLimits?: object, options: object = {}): Promise<Front> {
  return startDnsFront({
    target: apiBase,
    transfer: { api: apiBase, token: 'relay-token' },
    notify: { api: apiBase, token: 'relay-token' },
    ...(relayLimits ? { relayLimits } : {}),
    ...options,
  })
}

/**
 * Sends `messages` pipelined on one connection from `from`; resolves to the answers read (whole
 * messages) once there are as many, the front closes, or `ms` pass, and whether the front closed
 * the connection (`ended`).
 */
function converse(
  port: number,
  messages: Buffer[],
  { from = '127.0.0.1', ms = 2000 } = {}
): Promise<{ answers: Buffer[]; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from })
    let got = Buffer.alloc(0)
    const answers: Buffer[] = []
    let ended = false
    const done = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ answers, ended })
    }
    const timer = setTimeout(done, ms)
    socket.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c])
      while (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
        answers.push(got.subarray(2, 2 + got.readUInt16BE(0)))
        got = got.subarray(2 + got.readUInt16BE(0))
      }
      if (answers.length >= messages.length) done()
    })
    socket.on('end', () => {
      ended = true
      done()
    })
    socket.on('close', done)
    socket.on('error', reject)
    socket.write(
      Buffer.concat(
        messages.flatMap((m) => {
          const prefix = Buffer.alloc(2)
          prefix.writeUInt16BE(m.length)
          return [prefix, m]
        })
      )
    )
  })
}

const exchange = async (...args: Parameters<typeof converse>) => (await converse(...args)).answers

const signedSoaCheckOf = (name: string) => signedSoaCheck(name, KEY)
const until = (check: () => boolean, ms = 2000) => untilWithin(check, ms)

describe('the relay limiter on its own clock', () => {
  it('admits `clientRate` a second per client network, and another network on its own', () => {
    let t = 0
    const limits = relayLimiter({ clientRate: 2, now: () => t })
    const admitted = [1, 2, 3].map(() => limits.admit('192.0.2.1'))
    expect(admitted.map((done) => done !== null)).toEqual([true, true, false])
    expect(limits.admit('198.51.100.1')).not.toBeNull()
    t += 500
    expect(limits.admit('192.0.2.9')).not.toBeNull() // same /24, one request back
  })

  it('holds relays in flight to the per-network and total caps, freed once each ends', () => {
    const limits = relayLimiter({ clientConcurrency: 2, concurrency: 3, now: () => 0 })
    const a = [limits.admit('192.0.2.1'), limits.admit('192.0.2.2')]
    expect(limits.admit('192.0.2.3')).toBeNull()
    const b = limits.admit('198.51.100.1')
    expect(b).not.toBeNull()
    expect(limits.admit('203.0.113.1')).toBeNull() // three in flight in total
    a[0]!()
    a[0]!() // a second end frees nothing more
    expect(limits.inFlight).toBe(2)
    expect(limits.admit('203.0.113.1')).not.toBeNull()
    expect(limits.admit('192.0.2.4')).toBeNull()
  })

  it('limits nothing set to 0', () => {
    const limits = relayLimiter({ clientRate: 0, clientConcurrency: 0, concurrency: 0 })
    for (let i = 0; i < 5000; i++) expect(limits.admit('192.0.2.1')).not.toBeNull()
  })
})

describe('relays over TCP', () => {
  it("reach the API at most a network's rate; the rest get SERVFAIL, and another network is served", async () => {
    // A clock that stands still: the network's five requests do not come back during the test.
    const lines: string[] = []
    const front = await startFront(
      { clientRate: 5, now: () => 0 },
      { refusals: { log: lines.push.bind(lines) } }
    )
    try {
      const before = count('/dns_transfer')
      const flood = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const messages = [query(`flood${i}`, 'AXFR'), await signedSoaCheckOf(`flood${i}`)]
          return { messages, answers: await exchange(front.port, messages) }
        })
      )
      expect(count('/dns_transfer') - before).toBe(5)
      // Every query is answered on its open connection: five relayed, the rest SERVFAIL.
      const answers = flood.flatMap((f) => f.answers)
      expect(answers).toHaveLength(20)
      expect(answers.filter((a) => rcode(a) === 2)).toHaveLength(15)
      for (const { messages, answers: got } of flood)
        expect(got.map((a) => a.readUInt16BE(0))).toEqual(messages.map((m) => m.readUInt16BE(0)))
      // A NOTIFY from the flooded network is not relayed (nor answered); another network's is.
      expect(await exchange(front.port, [notifyOf('notified')], { ms: 300 })).toEqual([])
      expect(count('/dns_notify')).toBe(0)
      const other = { from: '127.0.1.1' }
      const [notified] = await exchange(front.port, [notifyOf('notified')], other)
      expect(notified![2]! & 0x80).toBe(0x80)
      const [axfr] = await exchange(front.port, [query('other', 'AXFR')], other)
      expect(rcode(axfr!)).toBe(0)
      expect(count('/dns_transfer', 'other')).toBe(1)
      // Sixteen refusals, one line: the first, at once; the rest wait for the network's next line.
      expect(lines).toEqual([
        'dns front: limits refused 1 (DNS_FRONT_RELAY_CLIENT_RATE 1) from 127.0.0.0/24',
      ])
    } finally {
      front.close()
    }
  })

  it('end the connection of an IXFR past a limit without an answer, after the answers before it', async () => {
    // One relay a second, on a clock that stands still: the AXFR takes it.
    const front = await startFront({ clientRate: 1, now: () => 0 })
    try {
      const before = count('/dns_transfer')
      const messages = [
        query('first', 'AXFR'),
        await signedSoaCheckOf('past'),
        query('past', 'IXFR'),
        query('after', 'A'),
      ]
      const { answers, ended } = await converse(front.port, messages, { ms: 10_000 })
      // The AXFR relayed, the signed SOA query SERVFAIL, then the connection ended: a SERVFAIL to
      // the IXFR would send a BIND secondary to ask AXFR at once.
      expect(ended).toBe(true)
      expect(answers.map((a) => [a.readUInt16BE(0), rcode(a)])).toEqual([
        [messages[0]!.readUInt16BE(0), 0],
        [messages[1]!.readUInt16BE(0), 2],
      ])
      expect(count('/dns_transfer') - before).toBe(1)
      // An AXFR past the limit is still answered SERVFAIL, on a connection that stays open.
      const axfr = await converse(front.port, [query('past', 'AXFR'), query('past', 'AXFR')])
      expect(axfr.answers.map(rcode)).toEqual([2, 2])
      expect(axfr.ended).toBe(false)
    } finally {
      front.close()
    }
  })

  it('are held in flight per network and in total; a slot frees when its transfer ends', async () => {
    const front = await startFront({ clientConcurrency: 2, concurrency: 3 })
    try {
      const before = count('/dns_transfer', 'held')
      const axfr = () => [query('held', 'AXFR')]
      const first = Array.from({ length: 4 }, () => exchange(front.port, axfr(), { ms: 5000 }))
      await until(() => count('/dns_transfer', 'held') - before === 2)
      const settled = await Promise.race([
        Promise.all(first.slice(2)),
        new Promise<null>((r) => setTimeout(() => r(null), 1000)),
      ])
      // The two past the network's cap are answered SERVFAIL without waiting for the others.
      expect(settled?.map(([a]) => a && rcode(a))).toEqual([2, 2])
      const other = exchange(front.port, axfr(), { from: '127.0.1.1', ms: 5000 })
      await until(() => count('/dns_transfer', 'held') - before === 3)
      const [third] = await exchange(front.port, axfr(), { from: '127.0.2.1' })
      expect(rcode(third!)).toBe(2) // three in flight in total
      release()
      const relayed = [...(await Promise.all(first.slice(0, 2))), await other]
      expect(relayed.map(([a]) => a && rcode(a))).toEqual([0, 0, 0])
      const [again] = await exchange(front.port, [query('again', 'AXFR')])
      expect(rcode(again!)).toBe(0)
      expect(count('/dns_transfer', 'held') - before).toBe(3)
    } finally {
      release()
      front.close()
    }
  })

  it('all go through at the defaults for a secondary pulling 100 zones at once from one network', async () => {
    const front = await startFront()
    try {
      const before = count('/dns_transfer', 'slow')
      const pulls = await Promise.all(
        Array.from({ length: 100 }, () => exchange(front.port, [query('slow', 'AXFR')]))
      )
      expect(pulls.map(([a]) => a && rcode(a))).toEqual(Array(100).fill(0))
      expect(count('/dns_transfer', 'slow') - before).toBe(100)
    } finally {
      front.close()
    }
  })
})
