/**
 * @module A minimal HTTP/2 front for the local stack. dig (+http-plain, +https) and kdig (+https)
 * speak DoH over HTTP/2 only, while the workerd server behind `wrangler dev` speaks HTTP/1.1; on
 * Cloudflare the edge terminates HTTP/2. This front plays the edge locally: h2c (or h2 over TLS)
 * in, every stream forwarded unchanged over HTTP/1.1 to `target`, its `:authority` as Host. As the
 * HTTP/1.1 front does (request-target.mjs), it answers `OPTIONS *` itself, forwards an absolute-form
 * target (HTTP/1.1 over TLS) in origin-form, refuses a host that is not loopback (403) and a
 * target it cannot forward (400).
 */
import http from 'node:http'
import http2 from 'node:http2'
import https from 'node:https'
import { routeRequest } from './request-target.mjs'

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
])

/** One HTTP/1.1 request; `ca` verifies a self-signed certificate. */
export function forward(url, { method = 'GET', headers = {}, body, ca } = {}) {
  const mod = url.startsWith('https:') ? https : http
  return new Promise((resolve, reject) => {
    const req = mod.request(url, { method, headers, ...(ca ? { ca } : {}) }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Starts the front on 127.0.0.1:`port` (0 = any free port). With `tls: {key, cert}` it serves h2
 * over TLS (and trusts `cert` for the upstream too), else h2c with prior knowledge.
 */
export async function startH2Front({ target, port = 0, tls }) {
  const handler = async (req, res) => {
    const chunks = []
    for await (const c of req) chunks.push(c)
    const route = routeRequest(req.method, req.url, req.headers[':authority'] ?? req.headers.host)
    if (route.answer) {
      const { status, headers = {}, text = '' } = route.answer
      res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8' })
      return res.end(text)
    }
    const headers = {
      ...Object.fromEntries(Object.entries(req.headers).filter(([k]) => !k.startsWith(':'))),
      host: route.forward.host,
    }
    try {
      // The path alone comes from the request (it starts with '/'): it cannot name another server.
      const up = await forward(`${target}${route.forward.path}`, {
        method: req.method,
        headers,
        body: Buffer.concat(chunks),
        ca: tls?.cert,
      })
      const out = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !HOP_BY_HOP.has(k)))
      res.writeHead(up.status, out)
      res.end(up.body)
    } catch (err) {
      res.writeHead(502)
      res.end(String(err))
    }
  }
  const server = tls
    ? http2.createSecureServer({ ...tls, allowHTTP1: true }, handler)
    : http2.createServer(handler)
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return { port: server.address().port, close: () => server.close() }
}
