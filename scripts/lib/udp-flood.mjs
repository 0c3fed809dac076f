/**
 * @module A UDP flood for the DNS front's load test, run as its own process:
 * `node udp-flood.mjs <port> <seconds>` sends queries to 127.0.0.1:<port> as fast as this one
 * process can, from one socket: half for random names (each a cache miss), half for one repeated
 * name, reading and discarding whatever comes back. Prints `{"sent":n,"received":m}` at the end.
 */
import dgram from 'node:dgram'
import { randomBytes } from 'node:crypto'

const [port, seconds] = process.argv.slice(2).map(Number)

/** An A query for `name` (RD, no EDNS). */
function query(id, name) {
  const labels = name.split('.').flatMap((l) => [l.length, ...Buffer.from(l)])
  const q = Buffer.from([0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...labels, 0, 0, 1, 0, 1])
  q.writeUInt16BE(id & 0xffff, 0)
  return q
}

const socket = dgram.createSocket('udp4')
let received = 0
socket.on('message', () => (received += 1))
await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve))
const end = Date.now() + seconds * 1000
let sent = 0
while (Date.now() < end) {
  const batch = []
  for (let i = 0; i < 64; i++, sent++) {
    const name = sent % 2 ? 'www.test' : `${randomBytes(6).toString('hex')}.nx.test`
    batch.push(new Promise((resolve) => socket.send(query(sent, name), port, '127.0.0.1', resolve)))
  }
  await Promise.all(batch)
  // Let the answers in now and then (send callbacks alone never reach the poll phase).
  if (sent % 4096 === 0) await new Promise((resolve) => setImmediate(resolve))
}
console.log(JSON.stringify({ sent, received }))
socket.close()
