/**
 * A TCP client of the DNS front (front-tcp.mjs) that pipelines queries and never reads its
 * answers: the front waits for each answer to drain before it writes the next, so it stops reading
 * the client's queries, holds at most MAX_TCP_BUFFERED of written bytes, and closes the connection
 * once the client has not read for the idle time.
 */
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { query } from './dns-client.ts'
import { framed } from './relay-test-messages.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { MAX_TCP_BUFFERED, serveTcp } from './front-tcp.mjs'

/** An answer of about 10 KB (the size of a large TXT answer) to `q`: its ID, QR set. */
function bigAnswer(q: Buffer): Buffer {
  const answer = Buffer.alloc(10_000)
  q.copy(answer, 0, 0, 12)
  answer[2]! |= 0x80
  return answer
}

const closers: (() => void)[] = []
afterEach(() => {
  while (closers.length) closers.pop()!()
})

it('stops reading, holds a bounded buffer and closes the connection of a client that never reads', async () => {
  /** The front's side of the connection: the most it held written and unsent, and what it read. */
  const seen = { maxBuffered: 0, answered: 0, closed: false }
  const server = net.createServer((socket) => {
    const write = socket.write.bind(socket) as (b: Buffer) => boolean
    socket.write = ((b: Buffer) => {
      const more = write(b)
      seen.maxBuffered = Math.max(seen.maxBuffered, socket.writableLength)
      return more
    }) as typeof socket.write
    socket.on('close', () => (seen.closed = true))
    serveTcp(socket, {
      notifies: () => false,
      relayer: { relays: () => false },
      answer: (q: Buffer) => {
        seen.answered++
        return bigAnswer(q)
      },
      tcpIdleMs: 500,
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  closers.push(() => server.close())
  const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1')
  client.on('error', () => {})
  client.pause() // never reads
  closers.push(() => client.destroy())
  // 32 queries every 20 ms for up to 3 s: hundreds of MB of answers if all were written.
  const batch = Buffer.concat(Array.from({ length: 32 }, () => framed(query('big.test', 'TXT'))))
  const sender = setInterval(() => client.writable && client.write(batch), 20)
  closers.push(() => clearInterval(sender))
  const started = Date.now()
  while (!seen.closed && Date.now() - started < 3_000) await new Promise((r) => setTimeout(r, 20))
  clearInterval(sender)
  const sent = Math.floor((Date.now() - started) / 20) * 32
  expect(seen.closed).toBe(true)
  expect(seen.maxBuffered).toBeLessThanOrEqual(MAX_TCP_BUFFERED + 10_002)
  // It stopped taking queries long before the client stopped sending them.
  expect(seen.answered).toBeLessThan(sent / 2)
})
