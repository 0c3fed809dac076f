/**
 * @module The DNS front's UDP sockets: `count` sockets on one address and port with SO_REUSEPORT
 * (Node.js 22.12 and later), among which the kernel spreads datagrams by their source address and
 * port. A flood from one source then fills one socket's queue only, and queries from other sources
 * keep reaching the others; the event loop reads every socket in turn. Where the option is not
 * available (the second socket cannot bind), the front runs on the sockets it has.
 */
import dgram from 'node:dgram'
import net from 'node:net'

/** Receive buffer per socket; rides out bursts (the kernel caps it at net.core.rmem_max). */
const RECV_BUFFER = 1024 * 1024

function bind(socket, port, host) {
  return new Promise((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(port, host, () => {
      socket.off('error', reject)
      resolve(socket)
    })
  })
}

/** Resolves to the bound sockets (at least one; rejects when not even one binds). */
export async function udpSockets({ host, port, count = 8 }) {
  const type = net.isIPv6(host) ? 'udp6' : 'udp4'
  const open = () => dgram.createSocket({ type, reusePort: count > 1, recvBufferSize: RECV_BUFFER })
  const sockets = [await bind(open(), port, host)]
  for (let i = 1; i < count; i++) {
    const socket = open()
    try {
      sockets.push(await bind(socket, port, host))
    } catch {
      socket.close()
      break
    }
  }
  return sockets
}
