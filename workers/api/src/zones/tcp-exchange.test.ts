import { describe, expect, it } from 'vitest'
import { tcpExchange, type Connect } from './tcp-exchange.ts'

/** A socket whose server side answers with `chunks` (or nothing) once the query is written. */
function fakeSocket(chunks: Uint8Array[] | 'silent' | 'hang-up') {
  const written: Uint8Array[] = []
  const state = { closed: false, address: null as SocketAddress | null }
  let push: ReadableStreamDefaultController<Uint8Array>
  const readable = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) })
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      written.push(chunk)
      if (chunks === 'hang-up') push.close()
      else if (chunks !== 'silent') for (const c of chunks) push.enqueue(c)
    },
  })
  const connect: Connect = (address) => {
    state.address = address
    return {
      readable,
      writable,
      opened: Promise.resolve({}),
      closed: Promise.resolve(),
      upgraded: false,
      secureTransport: 'off',
      close: async () => void (state.closed = true),
      startTls: () => {
        throw new Error('no TLS')
      },
    } as unknown as Socket
  }
  return { connect, written, state }
}

describe('a DNS exchange over TCP', () => {
  it('sends the framed query to port 53 and returns the first whole answer, whatever its chunks', async () => {
    const answer = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff)
    const framed = new Uint8Array([1, 44, ...answer, 9, 9])
    const s = fakeSocket([framed.slice(0, 1), framed.slice(1, 100), framed.slice(100)])
    const got = await tcpExchange(s.connect)('a.gtld-servers.net', new Uint8Array([7, 7, 7]), 1000)
    expect(got).toEqual(answer)
    expect(s.state.address).toEqual({ hostname: 'a.gtld-servers.net', port: 53 })
    expect(s.written).toEqual([new Uint8Array([0, 3, 7, 7, 7])])
    expect(s.state.closed).toBe(true)
  })

  it('gives connect() an IPv6 address in brackets (the runtime joins hostname and port)', async () => {
    const answer = new Uint8Array([1, 2])
    for (const [server, hostname] of [
      ['2001:db8::53', '[2001:db8::53]'],
      ['::1', '[::1]'],
      ['192.0.2.53', '192.0.2.53'],
    ]) {
      const s = fakeSocket([new Uint8Array([0, 2, ...answer])])
      await tcpExchange(s.connect)(server!, new Uint8Array([7]), 1000, 5353)
      expect(s.state.address).toEqual({ hostname, port: 5353 })
    }
  })

  it('fails, and closes the socket, when the server is silent or hangs up early', async () => {
    const silent = fakeSocket('silent')
    await expect(tcpExchange(silent.connect)('ns.test', new Uint8Array([1]), 50)).rejects.toThrow(
      'TCP port 53: no answer within 50 ms'
    )
    expect(silent.state.closed).toBe(true)
    const gone = fakeSocket('hang-up')
    await expect(tcpExchange(gone.connect)('ns.test', new Uint8Array([1]), 1000)).rejects.toThrow(
      'the connection closed before a whole answer arrived'
    )
  })
})
