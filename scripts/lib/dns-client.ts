/** A bare DNS client for the DNS front's tests: one query over UDP (from a chosen source address) or TCP. */
import dgram from 'node:dgram'
import net from 'node:net'
import packet from 'dns-packet'

let nextId = 1

/** A query with RD; `edns` adds an OPT record with that payload size, `dnssecOk` sets its DO bit. */
export function query(
  name: string,
  type: packet.RecordType = 'A',
  edns?: number,
  dnssecOk = false
): Buffer {
  return packet.encode({
    id: (nextId = (nextId % 65535) + 1),
    type: 'query',
    flags: packet.RECURSION_DESIRED,
    questions: [{ name, type, class: 'IN' }],
    ...(edns
      ? {
          additionals: [
            {
              name: '.',
              type: 'OPT',
              udpPayloadSize: edns,
              flags: dnssecOk ? packet.DNSSEC_OK : 0,
              options: [],
            },
          ],
        }
      : {}),
  } as packet.Packet)
}

/** The answer to `message` over UDP, or null when none arrives within `timeoutMs`. */
export function udpAsk(
  port: number,
  message: Buffer,
  { from = '127.0.0.1', timeoutMs = 1000 } = {}
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4')
    const done = (answer: Buffer | null) => {
      clearTimeout(timer)
      socket.close()
      resolve(answer)
    }
    const timer = setTimeout(() => done(null), timeoutMs)
    socket.on('message', (answer) => done(answer))
    socket.bind(0, from, () => socket.send(message, port, '127.0.0.1'))
  })
}

/** The answer to `message` over TCP (length-prefixed, RFC 1035 §4.2.2). */
export function tcpAsk(port: number, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let got = Buffer.alloc(0)
    socket.on('data', (c) => {
      got = Buffer.concat([got, c])
      if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
        socket.end()
        resolve(got.subarray(2, 2 + got.readUInt16BE(0)))
      }
    })
    socket.on('error', reject)
    const length = Buffer.alloc(2)
    length.writeUInt16BE(message.length)
    socket.write(Buffer.concat([length, message]))
  })
}

export const decode = (answer: Buffer) => packet.decode(answer)
export const rcode = (answer: Buffer) => answer[3]! & 0x0f
export const truncatedBit = (answer: Buffer) => (answer[2]! & 0x02) !== 0
