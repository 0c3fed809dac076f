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
 * On Cloudflare the edge plays this part (see workers/doh/README.md, "HTTP methods").
 */
import http from 'node:http'

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
export function unservedAnswer(target, path, headers, method) {
  return new Promise((resolve) => {
    const req = http.request(
      `${target}${path}`,
      { method: 'TRACE', headers: withoutBody(headers) },
      (res) => {
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
      }
    )
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

/** Starts the front on 127.0.0.1:`port`, forwarding to `target` (http://127.0.0.1:N). */
export async function startPublicFront({ target, port }) {
  const server = http.createServer((req, res) => {
    const up = http.request(
      `${target}${req.url}`,
      { method: req.method, headers: endToEnd(req.headers) },
      (upRes) => {
        const headers = endToEnd(upRes.headers)
        if (upRes.statusCode === 405 && headers.allow === undefined) headers.allow = ASSET_METHODS
        res.writeHead(upRes.statusCode ?? 502, headers)
        upRes.pipe(res)
      }
    )
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
      res.end(`edgedns dev: wrangler dev did not answer (${err.message})\n`)
    })
    req.pipe(up)
  })
  // CONNECT asks for a tunnel: Node hands it over as a raw socket, which gets the 405 and is closed.
  server.on('connect', async (req, socket) => {
    socket.on('error', () => {})
    const path = req.url?.startsWith('/') ? req.url : '/'
    const a = await unservedAnswer(target, path, req.headers, 'CONNECT')
    socket.end(
      `HTTP/1.1 ${a.status} ${http.STATUS_CODES[a.status] ?? ''}\r\n${a.allow ? `Allow: ${a.allow}\r\n` : ''}` +
        `Content-Type: ${a.type}\r\nContent-Length: ${Buffer.byteLength(a.text)}\r\nConnection: close\r\n\r\n${a.text}`
    )
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
