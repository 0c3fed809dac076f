/**
 * The DNS front (dns-front.mjs) against a stand-in DoH endpoint: answers over UDP and TCP, TC on
 * an oversized UDP answer, SERVFAIL when the upstream fails or times out, idle TCP connections
 * closed, TCP connections past the cap closed at once, kept-alive upstream connections, the
 * answer cache and its bounds, and response-rate limiting over UDP.
 */
import net from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'
import { startDohStub, type DohStub } from './doh-stub.ts'
import { decode, query, rcode, tcpAsk, truncatedBit, udpAsk } from './dns-client.ts'

interface Front {
  port: number
  cache: { entries: number; bytes: number }
  close: () => void
}

let stub: DohStub
const fronts: Front[] = []

beforeAll(async () => {
  stub = await startDohStub()
})
afterAll(() => stub?.close())
afterEach(() => {
  while (fronts.length) fronts.pop()!.close()
})

async function front(options: object = {}): Promise<Front> {
  // The cache and RRL with their deployed defaults unless a test says otherwise.
  const f: Front = await startDnsFront({ target: stub.base, cache: {}, rrl: {}, ...options })
  fronts.push(f)
  return f
}

const asked = (name: string) => stub.asked.get(name) ?? 0
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2)}.nx.test`

/** `message` with its TCP length prefix. */
function frame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(2)
  prefix.writeUInt16BE(message.length)
  return Buffer.concat([prefix, message])
}

/** A TCP connection to the front, once it is open. */
function connected(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** The answer to `message` on a new connection, or null when the front closes it without one. */
async function askOnce(port: number, message: Buffer): Promise<Buffer | null> {
  const socket = await connected(port)
  socket.on('error', () => {})
  return ask(socket, message)
    .catch(() => null)
    .finally(() => socket.destroy())
}

/** The answer to `message` on an open connection, left open. */
function ask(socket: net.Socket, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0)
    const onData = (c: Buffer) => {
      got = Buffer.concat([got, c])
      if (got.length < 2 || got.length < 2 + got.readUInt16BE(0)) return
      socket.off('data', onData)
      resolve(got.subarray(2, 2 + got.readUInt16BE(0)))
    }
    socket.on('data', onData)
    socket.once('close', () => reject(new Error('closed before the answer')))
    socket.write(frame(message))
  })
}

describe('answers', () => {
  it('answers over UDP and TCP with the query ID and question spelling', async () => {
    const f = await front()
    const q = query('WwW.TeSt')
    for (const answer of [await udpAsk(f.port, q), await tcpAsk(f.port, q)]) {
      const m = decode(answer!)
      expect(m.id).toBe(decode(q).id)
      expect(m.questions?.[0]?.name).toBe('WwW.TeSt')
      expect(m.answers?.[0]).toMatchObject({ type: 'A', data: '192.0.2.1' })
    }
  })

  it('sends a UDP answer larger than the client takes truncated (TC, no records); TCP gets it whole', async () => {
    const f = await front()
    const udp = (await udpAsk(f.port, query('mid.test', 'TXT')))!
    expect(truncatedBit(udp)).toBe(true)
    expect(decode(udp).answers).toEqual([])
    const midEdns = (await udpAsk(f.port, query('mid.test', 'TXT', 4096)))!
    expect(truncatedBit(midEdns)).toBe(false)
    expect(midEdns.length).toBeGreaterThan(512)
    // Over our own payload size (1,232) whatever the client offers, as BIND's max-udp-size.
    const bigEdns = (await udpAsk(f.port, query('big.test', 'TXT', 65535)))!
    expect(truncatedBit(bigEdns)).toBe(true)
    expect(bigEdns.length).toBeLessThan(100)
    const tcp = await tcpAsk(f.port, query('big.test', 'TXT'))
    expect(truncatedBit(tcp)).toBe(false)
    expect(decode(tcp).answers).toHaveLength(1)
  })

  it('answers SERVFAIL when the upstream fails, and when it does not answer in time', async () => {
    const f = await front({ upstream: { timeoutMs: 300 } })
    const failed = await udpAsk(f.port, query('fail.test'))
    expect(rcode(failed!)).toBe(2)
    const started = Date.now()
    const slow = await tcpAsk(f.port, query('slow.test'))
    expect(rcode(slow)).toBe(2)
    expect(decode(slow).questions?.[0]?.name).toBe('slow.test')
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('answers SERVFAIL at once when the upstream queue is full', async () => {
    const f = await front({ upstream: { concurrency: 1, queue: 0, timeoutMs: 500 } })
    const first = tcpAsk(f.port, query('slow.test'))
    await sleep(50)
    const started = Date.now()
    expect(rcode(await tcpAsk(f.port, query('www.test')))).toBe(2)
    expect(Date.now() - started).toBeLessThan(200)
    await first
  })

  it('closes an idle TCP connection, but not one waiting for its answer', async () => {
    const f = await front({ tcpIdleMs: 300, upstream: { timeoutMs: 900 } })
    // Waiting longer than the idle time for the upstream: the answer (SERVFAIL) still comes.
    const slow = await tcpAsk(f.port, query('slow.test'))
    expect(rcode(slow)).toBe(2)
    const socket = net.connect(f.port, '127.0.0.1')
    const opened = Date.now()
    await new Promise((resolve) => socket.once('close', resolve))
    expect(Date.now() - opened).toBeGreaterThanOrEqual(250)
    expect(Date.now() - opened).toBeLessThan(2000)
  })

  it.each([
    ['tcpClients', 'DNS_FRONT_TCP_CLIENTS'],
    ['tcpClientConnections', 'DNS_FRONT_TCP_CLIENT_CONNECTIONS'],
  ])(
    'closes a TCP connection past %s (all from one client network here) as soon as it is accepted, and logs it',
    async (option, setting) => {
      const lines: string[] = []
      const f = await front({ [option]: 2, refusals: { log: lines.push.bind(lines) } })
      const open = await Promise.all([0, 1].map(() => connected(f.port)))
      try {
        // Both served: the front holds them.
        for (const socket of open) expect(rcode(await ask(socket, query('www.test')))).toBe(0)
        expect(await askOnce(f.port, query('www.test'))).toBeNull()
        expect(lines).toEqual([`dns front: limits refused 1 (${setting} 1) from 127.0.0.0/24`])
        // Once one of the two is gone, a new connection is served again.
        open.pop()!.destroy()
        while (!(await askOnce(f.port, query('www.test')))) await sleep(10)
      } finally {
        for (const socket of open) socket.destroy()
      }
    }
  )

  it('closes a connection that trickles bytes without bringing a whole query within tcpIdleMs', async () => {
    const f = await front({ tcpIdleMs: 500 })
    const socket = await connected(f.port)
    const closed = new Promise<number>((resolve) => {
      const started = Date.now()
      socket.on('close', () => resolve(Date.now() - started))
    })
    socket.on('error', () => {})
    // A length prefix of a 65,535-octet query, then a byte every 100 ms: the socket is never
    // silent for tcpIdleMs, but no query arrives whole within the test.
    socket.write(Buffer.from([0xff, 0xff]))
    const trickle = setInterval(() => socket.writable && socket.write(Buffer.from([0])), 100)
    try {
      const ms = await Promise.race([closed, sleep(8_000).then(() => -1)])
      expect(ms).toBeGreaterThan(0)
    } finally {
      clearInterval(trickle)
      socket.destroy()
    }
  })

  it('keeps its upstream connections alive across queries', async () => {
    const f = await front({ cache: { maxTtl: 0 } })
    const before = stub.connections()
    for (let i = 0; i < 20; i++) await udpAsk(f.port, query('www.test'))
    expect(stub.connections() - before).toBe(1)
  })
})

describe('the answer cache', () => {
  it('answers a repeated query itself within the TTL cap, and asks again after it', async () => {
    const f = await front({ cache: { maxTtl: 0.4 } })
    const name = unique('cached')
    await udpAsk(f.port, query(name))
    const again = (await udpAsk(f.port, query(name.toUpperCase())))!
    expect(rcode(again)).toBe(3)
    expect(decode(again).questions?.[0]?.name).toBe(name.toUpperCase())
    expect(asked(name)).toBe(1)
    await sleep(500)
    await tcpAsk(f.port, query(name))
    expect(asked(name)).toBe(2)
  })

  it('keeps an answer no longer than its own TTL when that is below the cap', async () => {
    const f = await front({ cache: { maxTtl: 60 } })
    const before = asked('short.test')
    await udpAsk(f.port, query('short.test'))
    await udpAsk(f.port, query('short.test'))
    expect(asked('short.test') - before).toBe(1)
    await sleep(1100)
    await udpAsk(f.port, query('short.test'))
    expect(asked('short.test') - before).toBe(2)
  })

  it('keeps a negative answer for its SOA minimum when that is below the SOA TTL (RFC 2308)', async () => {
    const f = await front({ cache: { maxTtl: 60 } })
    const name = unique('negative')
    await udpAsk(f.port, query(name))
    await sleep(1500)
    await udpAsk(f.port, query(name))
    expect(asked(name)).toBe(1)
    await sleep(600)
    await udpAsk(f.port, query(name))
    expect(asked(name)).toBe(2)
  })

  it('keys answers by the DO bit', async () => {
    const f = await front()
    const name = unique('do')
    await udpAsk(f.port, query(name, 'A', 1232))
    await udpAsk(f.port, query(name, 'A', 1232, true))
    expect(asked(name)).toBe(2)
    await udpAsk(f.port, query(name, 'A', 4096, true))
    expect(asked(name)).toBe(2)
  })

  it('does not keep failures', async () => {
    const f = await front()
    const before = asked('fail.test')
    await udpAsk(f.port, query('fail.test'))
    await udpAsk(f.port, query('fail.test'))
    expect(asked('fail.test') - before).toBe(2)
  })

  it('never holds more entries or bytes than its caps', async () => {
    const f = await front({ cache: { maxEntries: 10, maxBytes: 100_000 }, rrl: { rate: 0 } })
    for (let i = 0; i < 40; i++) await udpAsk(f.port, query(unique(`cap${i}`)))
    expect(f.cache.entries).toBe(10)
    const small = await front({ cache: { maxEntries: 1000, maxBytes: 1500 }, rrl: { rate: 0 } })
    for (let i = 0; i < 40; i++) await udpAsk(small.port, query(unique(`bytes${i}`)))
    expect(small.cache.bytes).toBeLessThanOrEqual(1500)
    expect(small.cache.entries).toBeGreaterThan(0)
  })
})

describe('response-rate limiting', () => {
  it('slips every second response over the limit and drops the rest, per client network; TCP is not limited', async () => {
    const f = await front({ rrl: { rate: 5 } })
    await udpAsk(f.port, query('www.test')) // cached from here on
    const burst = (from: string) =>
      Promise.all(
        Array.from({ length: 25 }, () =>
          udpAsk(f.port, query('www.test'), { from, timeoutMs: 400 })
        )
      )
    const flooded = await burst('127.0.0.1')
    const full = flooded.filter((a) => a && !truncatedBit(a)).length
    const slipped = flooded.filter((a) => a && truncatedBit(a)).length
    const dropped = flooded.filter((a) => a === null).length
    expect(full).toBeLessThanOrEqual(5)
    expect(slipped).toBeGreaterThan(0)
    expect(dropped).toBeGreaterThan(0)
    expect(Math.abs(slipped - dropped)).toBeLessThanOrEqual(1)
    // Another /24 has its own buckets; TCP from the flooded one is answered in full.
    const other = await udpAsk(f.port, query('www.test'), { from: '127.0.1.1' })
    expect(truncatedBit(other!)).toBe(false)
    for (let i = 0; i < 10; i++) {
      const tcp = await tcpAsk(f.port, query('www.test'))
      expect(truncatedBit(tcp)).toBe(false)
    }
  })
})
