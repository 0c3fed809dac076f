/**
 * Queries pipelined on one TCP connection to the DNS front (dns-front.mjs): answers are written
 * whole and in the order asked, so nothing lands inside a transfer's message; a relay that fails
 * behind another closes only that connection (the front keeps serving), and a NOTIFY the API
 * failed goes unanswered without cutting a transfer on the same connection. A connection holds at
 * most MAX_PIPELINED answers in flight (the front stops reading it), and one left idle closes
 * however long an answer took before.
 */
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { query } from './dns-client.ts'
import { framed, notifyOf, stubApi } from './relay-test-messages.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { MAX_PIPELINED, startDnsFront } from './dns-front.mjs'

describe('queries pipelined on one TCP connection', () => {
  let pipe: { base: string; close(): void }
  let front: { port: number; close(): void }

  beforeAll(async () => {
    // DoH echoes the query as its answer. The relay answers "split" with its message in two parts
    // 150 ms apart (a transfer's parts are not whole messages), "fails" with HTTP 500 after
    // 100 ms; a NOTIFY fails at once.
    pipe = await stubApi((req, body, res) => {
      if (req.url?.endsWith('/dns_notify')) return void res.writeHead(500).end('down')
      body[2]! |= 0x80
      if (req.url?.endsWith('/dns-query'))
        return void res.writeHead(200, { 'content-type': 'application/dns-message' }).end(body)
      const name = String(body.subarray(13, 13 + body[12]!))
      if (name === 'fails') return void setTimeout(() => res.writeHead(500).end('boom'), 100)
      const message = framed(body)
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      res.write(message.subarray(0, 10))
      setTimeout(() => res.end(message.subarray(10)), 150)
    })
    const base = pipe.base
    front = await startDnsFront({
      target: base,
      transfer: { api: base, token: 'relay-token' },
      notify: { api: base, token: 'relay-token' },
    })
  })
  afterAll(() => {
    front?.close()
    pipe?.close()
  })

  /** Sends `messages` framed on one connection, 30 ms apart; the bytes read until it closes or `ms`. */
  function pipelined(messages: Buffer[], ms: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(front.port, '127.0.0.1')
      const got: Buffer[] = []
      const done = () => resolve(Buffer.concat(got))
      socket.on('data', (c: Buffer) => got.push(c))
      socket.on('close', done)
      socket.on('error', reject)
      setTimeout(() => socket.destroy(), ms)
      messages.forEach((m, i) => setTimeout(() => socket.write(framed(m)), 30 * i))
    })
  }

  /** The IDs of the framed messages in `bytes`, in order; null for a frame that is not whole. */
  function frameIds(bytes: Buffer): (number | null)[] {
    const ids: (number | null)[] = []
    for (let at = 0; at + 2 <= bytes.length; at += 2 + bytes.readUInt16BE(at))
      ids.push(at + 2 + bytes.readUInt16BE(at) <= bytes.length ? bytes.readUInt16BE(at + 2) : null)
    return ids
  }

  it('writes an answer after the whole of a transfer asked before it, never inside a message', async () => {
    const axfr = query('split', 'AXFR')
    const plain = query('www.pipelined.test', 'A')
    const got = await pipelined([axfr, plain], 600)
    expect(frameIds(got)).toEqual([axfr.readUInt16BE(0), plain.readUInt16BE(0)])
  })

  it('closes the connection, and keeps running, when a relay queued behind a transfer fails', async () => {
    const axfr = query('split', 'AXFR')
    const got = await pipelined([axfr, query('fails', 'AXFR')], 2_000)
    // The first transfer whole, then the close (before the 2-s limit of the read).
    expect(frameIds(got)).toEqual([axfr.readUInt16BE(0)])
    const again = query('www.after.test', 'A')
    expect(frameIds(await pipelined([again], 600))).toEqual([again.readUInt16BE(0)])
  })

  it('answers every query of a client that ends its side right after sending them, then ends its own', async () => {
    const axfr = query('split', 'AXFR')
    const plain = query('www.half-closed.test', 'A')
    const got = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(front.port, '127.0.0.1')
      const parts: Buffer[] = []
      socket.on('data', (c: Buffer) => parts.push(c))
      socket.on('close', () => resolve(Buffer.concat(parts)))
      socket.on('error', reject)
      // Both queries and the FIN at once: the transfer's answer takes 150 ms to come.
      socket.end(Buffer.concat([framed(axfr), framed(plain)]))
      setTimeout(() => socket.destroy(), 2_000)
    })
    expect(frameIds(got)).toEqual([axfr.readUInt16BE(0), plain.readUInt16BE(0)])
  })

  it('leaves a NOTIFY the API failed unanswered without cutting the transfer on the connection', async () => {
    const axfr = query('split', 'AXFR')
    const notify = notifyOf('notified.test')
    const plain = query('www.pipelined.test', 'A')
    const got = await pipelined([axfr, notify, plain], 600)
    expect(frameIds(got)).toEqual([axfr.readUInt16BE(0), plain.readUInt16BE(0)])
  })
})

describe('limits of one TCP connection', () => {
  let held: { base: string; close(): void }
  let base: string
  /** DoH requests the stand-in holds until `release()`, and NOTIFY failing after 400 ms. */
  let waiting: (() => void)[] = []
  let seen = 0
  const release = () => {
    for (const go of waiting.splice(0)) go()
  }

  beforeAll(async () => {
    held = await stubApi((req, body, res) => {
      if (req.url?.endsWith('/dns_notify'))
        return void setTimeout(() => res.writeHead(500).end('down'), 400)
      body[2]! |= 0x80
      seen++
      waiting.push(() =>
        res.writeHead(200, { 'content-type': 'application/dns-message' }).end(body)
      )
    })
    base = held.base
  })
  afterAll(() => {
    release()
    held?.close()
  })

  it('holds at most MAX_PIPELINED answers in flight, and answers every query in order', async () => {
    const front = await startDnsFront({
      target: base,
      upstream: { concurrency: 200, timeoutMs: 10_000 },
    })
    try {
      seen = 0
      const queries = Array.from({ length: 100 }, (_, i) => query(`q${i}.limit.test`, 'A'))
      const socket = net.connect(front.port, '127.0.0.1')
      const got: Buffer[] = []
      socket.on('data', (c: Buffer) => got.push(c))
      socket.write(Buffer.concat(queries.map(framed)))
      await new Promise((r) => setTimeout(r, 300))
      expect(seen).toBe(MAX_PIPELINED)
      // Each answer written lets the next query in: release until all came back.
      const ids = (): number[] => {
        const bytes = Buffer.concat(got)
        const read: number[] = []
        for (let at = 0; at + 4 <= bytes.length; at += 2 + bytes.readUInt16BE(at))
          read.push(bytes.readUInt16BE(at + 2))
        return read
      }
      for (let i = 0; i < 100 && ids().length < queries.length; i++) {
        release()
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(ids()).toEqual(queries.map((q) => q.readUInt16BE(0)))
      socket.destroy()
    } finally {
      front.close()
    }
  })

  it('closes an idle connection after a NOTIFY it could not answer took longer than the idle time', async () => {
    const front = await startDnsFront({
      target: base,
      notify: { api: base, token: 'relay-token' },
      tcpIdleMs: 200,
    })
    try {
      const socket = net.connect(front.port, '127.0.0.1')
      const started = Date.now()
      const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now() - started)))
      socket.write(framed(notifyOf('notified.test')))
      const after = await Promise.race([
        closed,
        new Promise<number>((r) => setTimeout(() => r(-1), 3_000)),
      ])
      socket.destroy()
      expect(after).toBeGreaterThan(400)
      expect(after).toBeLessThan(3_000)
    } finally {
      front.close()
    }
  })
})
