/**
 * The HTTP fronts of `pnpm dev` (public-front.mjs, HTTP/1.1; h2-front.mjs, HTTP/2) against a stub
 * upstream that records what reaches it: every request line gets an answer (none stops the front,
 * which would stop `pnpm dev`), and only requests addressed to a loopback host are forwarded.
 */
import http from 'node:http'
import http2 from 'node:http2'
import { connect, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module shared with scripts/dev.mjs
import { startH2Front } from './h2-front.mjs'
// @ts-expect-error plain ESM module shared with scripts/dev.mjs
import { startPublicFront } from './public-front.mjs'

interface Seen {
  method: string
  url: string
  host: string | undefined
}

const seen: Seen[] = []
let upstream: http.Server
let front: { port: number; close: () => void }
let h2: { port: number; close: () => void }

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, host: req.headers.host })
    req.resume()
    res.end('upstream')
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  front = await startPublicFront({ target, port: 0 })
  h2 = await startH2Front({ target, port: 0 })
})

afterAll(() => {
  front?.close()
  h2?.close()
  upstream?.close()
})

/** Sends `text` on a raw socket; resolves to the status line and the whole answer. */
function raw(port: number, text: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let out = ''
    socket.on('data', (c) => (out += c.toString('latin1')))
    socket.on('end', () => resolve({ status: Number(out.split(' ')[1]), text: out }))
    socket.on('error', reject)
    socket.write(text)
    setTimeout(() => socket.end(), 300)
  })
}

async function forwarded<T>(ask: () => Promise<T>): Promise<{ result: T; upstream: Seen[] }> {
  const before = seen.length
  const result = await ask()
  return { result, upstream: seen.slice(before) }
}

describe('the HTTP/1.1 front', () => {
  it('answers OPTIONS * itself with the methods the stack serves, and keeps serving', async () => {
    const r = await forwarded(() =>
      raw(front.port, 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    )
    expect(r.result.status).toBe(200)
    expect(r.result.text).toMatch(/^allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r$/im)
    expect(r.upstream).toEqual([])
    const next = await forwarded(() =>
      raw(front.port, 'GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n')
    )
    expect(next.result.status).toBe(200)
    expect(next.upstream).toEqual([{ method: 'GET', url: '/x', host: 'localhost' }])
  })

  it('refuses * with any other method (400)', async () => {
    const r = await forwarded(() => raw(front.port, 'GET * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'))
    expect(r.result.status).toBe(400)
    expect(r.upstream).toEqual([])
  })

  it('forwards an absolute-form request in origin-form, the URI authority as Host (RFC 9112 §3.2.2)', async () => {
    const r = await forwarded(() =>
      raw(
        front.port,
        'GET http://localhost:8787/client/v4/zones?name=a HTTP/1.1\r\nHost: rebind.example\r\n\r\n'
      )
    )
    expect(r.result.status).toBe(200)
    expect(r.upstream).toEqual([
      { method: 'GET', url: '/client/v4/zones?name=a', host: 'localhost:8787' },
    ])
  })

  it.each([
    [
      'an absolute-form URI of another host',
      'GET http://rebind.example/ HTTP/1.1\r\nHost: 127.0.0.1',
      403,
    ],
    [
      'a Host that is not loopback',
      'GET /client/v4/local_dev HTTP/1.1\r\nHost: rebind.example:8787',
      403,
    ],
    ['a look-alike name', 'GET / HTTP/1.1\r\nHost: 127.0.0.1.nip.io', 403],
    // Ports no URL holds: the runtime behind the front would answer a plain-text 500.
    ['a port past 65535', 'GET /client/v4/zones HTTP/1.1\r\nHost: localhost:99999', 403],
    ['an IPv6 port past 65535', 'GET / HTTP/1.1\r\nHost: [::1]:65536', 403],
    ['an empty port', 'GET / HTTP/1.1\r\nHost: localhost:', 403],
    ['a port that is not digits', 'GET / HTTP/1.1\r\nHost: localhost:abc', 403],
    [
      'CONNECT with a Host that is not loopback',
      'CONNECT /dns-query HTTP/1.1\r\nHost: rebind.example',
      403,
    ],
    ['another scheme', 'GET ftp://localhost/ HTTP/1.1\r\nHost: 127.0.0.1', 400],
    ['a URI with user information', 'GET http://a@localhost/ HTTP/1.1\r\nHost: 127.0.0.1', 400],
  ])('refuses %s without forwarding it', async (_, head, status) => {
    const r = await forwarded(() => raw(front.port, `${head}\r\n\r\n`))
    expect(r.result.status).toBe(status)
    expect(r.upstream).toEqual([])
  })
})

describe('the HTTP/2 front', () => {
  async function ask(
    headers: http2.OutgoingHttpHeaders
  ): Promise<{ status: number; allow: unknown }> {
    const session = http2.connect(`http://127.0.0.1:${h2.port}`)
    try {
      return await new Promise((resolve, reject) => {
        const stream = session.request(headers)
        stream.on('response', (h) => {
          stream.resume()
          stream.on('end', () => resolve({ status: Number(h[':status']), allow: h.allow }))
        })
        stream.on('error', reject)
        stream.end()
      })
    } finally {
      session.close()
    }
  }

  it('answers OPTIONS * itself, and refuses an authority that is not loopback', async () => {
    const options = await forwarded(() =>
      ask({ ':method': 'OPTIONS', ':path': '*', ':authority': '127.0.0.1' })
    )
    expect(options.result).toEqual({
      status: 200,
      allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    })
    const refused = await forwarded(() =>
      ask({ ':method': 'GET', ':path': '/client/v4/local_dev', ':authority': 'rebind.example' })
    )
    expect(refused.result.status).toBe(403)
    expect([...options.upstream, ...refused.upstream]).toEqual([])
    const ok = await forwarded(() =>
      ask({ ':method': 'GET', ':path': '/q', ':authority': '[::1]:1' })
    )
    expect(ok.result.status).toBe(200)
    expect(ok.upstream).toEqual([{ method: 'GET', url: '/q', host: '[::1]:1' }])
  })
})
