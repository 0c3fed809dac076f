/**
 * @module One DNS message exchanged with a name server over TCP port 53 from the Worker
 * (`connect()` from `cloudflare:sockets`): the query framed with its length, the first whole
 * message read back, the socket closed, all within a time limit. The framing is
 * `@edgedns/dns-wire`'s; the runtime refuses connections to private addresses and to
 * Cloudflare's own ranges, which then fail like any unreachable server.
 */
import { connect } from 'cloudflare:sockets'
import { frameTcp, TcpMessageSplitter } from '@edgedns/dns-wire'

export type Connect = (address: SocketAddress, options?: SocketOptions) => Socket

const DNS_PORT = 53

async function talk(socket: Socket, query: Uint8Array): Promise<Uint8Array> {
  const writer = socket.writable.getWriter()
  await writer.write(frameTcp(query))
  writer.releaseLock()
  const reader = socket.readable.getReader()
  const collected = new TcpMessageSplitter()
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) throw new Error('the connection closed before a whole answer arrived')
      const [message] = collected.push(value as Uint8Array)
      if (message) return message
    }
  } finally {
    reader.releaseLock()
  }
}

/**
 * `exchange(server, query, timeoutMs, port)` over `connectTo` (the runtime's `connect` by
 * default); the port defaults to 53.
 */
export function tcpExchange(connectTo: Connect = connect) {
  return async (
    server: string,
    query: Uint8Array,
    timeoutMs: number,
    port = DNS_PORT
  ): Promise<Uint8Array> => {
    const socket = connectTo({ hostname: socketHostname(server), port }, { allowHalfOpen: false })
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      return await Promise.race([talk(socket, query), timeout])
    } catch (e) {
      throw new Error(`TCP port ${port}: ${(e as Error).message ?? e}`)
    } finally {
      clearTimeout(timer)
      socket.close().catch(() => {})
    }
  }
}

/**
 * An address as `connect()` takes it for `hostname`: the runtime joins `hostname:port` into one
 * string, so an IPv6 address goes in brackets (`[::1]`), or no connection is made.
 */
export function socketHostname(ip: string): string {
  return ip.includes(':') && !ip.startsWith('[') ? `[${ip}]` : ip
}
