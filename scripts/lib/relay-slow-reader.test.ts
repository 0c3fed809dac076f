/**
 * A client that stops reading a relayed transfer loses its connection, and the relay its slot,
 * once the answer has not drained for the idle time, even while it keeps sending bytes: a few such
 * clients cannot hold the front's relay slots from every other secondary.
 */
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { expect, it } from 'vitest'
import { query, rcode } from './dns-client.ts'
// @ts-expect-error plain ESM module shared with scripts/dns-front.mjs
import { startDnsFront } from './dns-front.mjs'

const framed = (m: Uint8Array) => {
  const p = Buffer.alloc(2)
  p.writeUInt16BE(m.length)
  return Buffer.concat([p, m])
}

it('a client that reads nothing but trickles bytes gives up its relay slot after the idle time', async () => {
  // Stand-in API: an endless AXFR answer (framed 1,000-octet messages), written as fast as read.
  const api = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const msg = Buffer.alloc(1000)
      Buffer.concat(chunks).copy(msg)
      msg[2]! |= 0x80
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      const pump = () => {
        while (!res.destroyed && res.write(framed(msg)));
        if (!res.destroyed) res.once('drain', pump)
      }
      pump()
      req.socket.on('close', () => res.destroy())
    })
  })
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
  const front = await startDnsFront({
    target: base,
    transfer: { api: base, token: 't' },
    tcpIdleMs: 500,
    relayLimits: { concurrency: 1 },
  })
  const slow = net.connect({ port: front.port, host: '127.0.0.1' })
  const closed = new Promise((r) => slow.on('close', r))
  slow.on('error', () => {})
  slow.pause() // never reads
  slow.write(framed(query('big', 'AXFR')))
  // A byte every 300 ms (a next query that never completes): the socket is never silent.
  const trickle = setInterval(() => slow.destroyed || slow.write(Buffer.from([0x00])), 300)
  try {
    await closed
    // The one slot is free: another network's transfer is relayed.
    const other = await new Promise<Buffer>((resolve, reject) => {
      const s = net.connect({ port: front.port, host: '127.0.0.1', localAddress: '127.0.1.1' })
      let got = Buffer.alloc(0)
      s.on('data', (c: Buffer) => {
        got = Buffer.concat([got, c])
        if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
          s.destroy()
          resolve(got.subarray(2, 2 + got.readUInt16BE(0)))
        }
      })
      s.on('error', reject)
      s.write(framed(query('other', 'AXFR')))
    })
    expect(rcode(other)).toBe(0)
  } finally {
    clearInterval(trickle)
    slow.destroy()
    front.close()
    api.closeAllConnections()
    api.close()
  }
}, 20_000)
