/**
 * @module The public HTTP/1.1 port of `pnpm dev`: forwards every request unchanged (streamed, Host
 * kept) to `wrangler dev` on an internal port, and answers what Miniflare would mishandle, the way
 * the worker answers a method it does not serve: 405 with an `Allow` header.
 *
 * - CONNECT never reaches the worker under Miniflare (its entry worker answers 500 first), so the
 *   front answers it with the worker's own answer to an unserved method at that path: it asks the
 *   same path with TRACE, which no route serves, and relays that 405 and its `Allow`.
 * - The static assets (the dashboard) answer 405 without `Allow` to methods other than GET and
 *   HEAD: the front adds `Allow: GET, HEAD` there.
 * - A method token Node's parser does not know gets 501, as from workerd and Cloudflare.
 * - The request-target and Host are checked first (request-target.mjs): `OPTIONS *` is answered
 *   here, an absolute-form target is forwarded in origin-form, a host that is not loopback gets 403
 *   (DNS rebinding), and a target the front cannot forward gets 400; none of them stops the front.
 * On Cloudflare the edge plays this part (see workers/doh/README.md, "HTTP methods").
 */
import http from 'node:http'
import { isLoopbackHost, routeRequest } from './request-target.mjs'

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
])
/** What the static assets serve. */
const ASSET_METHODS = 'GET, HEAD'

/** The probe carries no body: the request's headers without the ones describing one. */
function withoutBody(headers) {
  const { 'content-length': _length, 'content-type': _type, ...rest } = endToEnd(headers)
  return rest
}

function endToEnd(headers) {
  return Object.fromEntries(
    Object.entries(headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && v !== undefined)
  )
}

/**
 * The worker's answer to a method it does not serve at `path`: TRACE, which no route serves, asked
 * upstream with the request's headers. Its status (405; 403 without a valid token and 400 for an
 * unknown path under /client/v4, as for any method), `Allow` (GET, HEAD for the assets) and
 * body, the method named in the API's message being the one asked.
 */
function unservedAnswer(target, path, headers, method) {
  return new Promise((resolve) => {
    const upstream = new URL(target)
    const options = {
      hostname: upstream.hostname,
      port: upstream.port,
      path,
      method: 'TRACE',
      headers: withoutBody(headers),
    }
    let req
    try {
      req = http.request(options, (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          const status = res.statusCode ?? 502
          const allow =
            typeof res.headers.allow === 'string'
              ? res.headers.allow
              : status === 405
                ? ASSET_METHODS
                : undefined
          const text = Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\bTRACE(?= )/, method)
          resolve({
            status,
            allow,
            type: res.headers['content-type'] ?? 'text/plain; charset=utf-8',
            text,
          })
        })
      })
    } catch (err) {
      return resolve({ status: 400, text: `edgedns dev: bad request: ${err.message}\n` })
    }
    req.on('error', (err) =>
      resolve({
        status: 502,
        type: 'text/plain; charset=utf-8',
        text: `edgedns dev: wrangler dev did not answer (${err.message})\n`,
      })
    )
    req.end()
  })
}

/** The raw HTTP/1.1 response a socket handed over by Node (CONNECT) ends with. */
function rawResponse({ status, allow, type = 'text/plain; charset=utf-8', text = '' }) {
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n${allow ? `Allow: ${allow}\r\n` : ''}` +
    `Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  )
}

/** A response the front gives itself (request-target.mjs): `OPTIONS *`, 400, 403. */
function answer(res, { status, headers = {}, text = '' }) {
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

/** Starts the front on 127.0.0.1:`port`, forwarding to `target` (http://127.0.0.1:N). */
export async function startPublicFront({ target, port }) {
  const upstream = new URL(target)
  const server = http.createServer((req, res) => {
    const route = routeRequest(req.method, req.url, req.headers.host)
    if (route.answer) {
      req.resume()
      return answer(res, route.answer)
    }
    const headers = { ...endToEnd(req.headers), host: route.forward.host }
    let up
    try {
      // Host and port from `target`, the path alone from the request: no request-target can
      // address another server.
      up = http.request(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          path: route.forward.path,
          method: req.method,
          headers,
        },
        (upRes) => {
          const headers = endToEnd(upRes.headers)
          if (upRes.statusCode === 405 && headers.allow === undefined) headers.allow = ASSET_METHODS
          res.writeHead(upRes.statusCode ?? 502, headers)
          upRes.pipe(res)
        }
      )
    } catch (err) {
      req.resume()
      return answer(res, { status: 400, text: `edgedns dev: bad request: ${err.message}\n` })
    }
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
      res.end(`edgedns dev: wrangler dev did not answer (${err.message})\n`)
    })
    req.pipe(up)
  })
  // CONNECT asks for a tunnel: Node hands it over as a raw socket, which gets the 405 and is closed.
  server.on('connect', async (req, socket) => {
    socket.on('error', () => {})
    if (!isLoopbackHost(req.headers.host)) {
      const refused = routeRequest('GET', '/', req.headers.host).answer
      return socket.end(rawResponse(refused))
    }
    const path = req.url?.startsWith('/') ? req.url : '/'
    socket.end(rawResponse(await unservedAnswer(target, path, req.headers, 'CONNECT')))
  })
  // A method token Node's parser does not know: 501, as workerd and Cloudflare answer it.
  server.on('clientError', (err, socket) => {
    if (!socket.writable) return socket.destroy()
    const status = err.code === 'HPE_INVALID_METHOD' ? 501 : 400
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`
    )
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return {
    port: server.address().port,
    close: () => {
      server.close()
      server.closeAllConnections()
    },
  }
}
