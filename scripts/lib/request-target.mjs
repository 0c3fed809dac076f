/**
 * @module What the local stack's HTTP fronts (public-front.mjs, h2-front.mjs) make of a request's
 * target and host before forwarding it, so that no request line can make them throw:
 *
 * - origin-form (`/path?query`) is forwarded as it is;
 * - absolute-form (`http://host:port/path`, RFC 9112 §3.2.2) is forwarded in origin-form, its
 *   authority replacing the Host header (which the RFC says to ignore then); another scheme is 400;
 * - asterisk-form (`*`, RFC 9112 §3.2.4) is the server-wide `OPTIONS *`: answered by the front
 *   itself (200 with the methods the stack serves in `Allow`); with another method it is 400;
 * - anything else (authority-form outside CONNECT, garbage) is 400.
 *
 * The stack is a single user's development server bound to loopback: a request whose host is not a
 * loopback name (`localhost`, 127.0.0.0/8, `[::1]` in any form, any port 0–65535) comes from a page that rebound its
 * own name to 127.0.0.1 (DNS rebinding), and is refused with 403 before it is forwarded. So is a Host
 * with a port no URL holds (`localhost:99999`): workerd would answer it with a plain-text 500.
 */
import { isLoopbackHost } from '../../packages/dns-facts/src/loopback.ts'

/** The loopback rule the API worker uses too (packages/dns-facts). */
export { isLoopbackHost }

/** Every method some path of the stack serves (the union of the worker's `Allow` headers). */
const SERVER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'

/**
 * What to do with a request: `{ forward: { path, host } }` (origin-form path and the host to
 * check and send), or `{ answer: { status, headers, text } }` for the front to answer itself.
 * `target` is the request-target (`req.url`), `host` the Host header (`:authority` in HTTP/2).
 */
export function routeRequest(method, target, host) {
  let path = target
  let effectiveHost = host
  if (target === '*') {
    if (method === 'OPTIONS') return { answer: { status: 200, headers: { allow: SERVER_METHODS } } }
    return badRequest(`the request-target * is only for OPTIONS, not ${method}`)
  }
  if (typeof target !== 'string' || target === '') return badRequest('no request-target')
  if (!target.startsWith('/')) {
    let url
    try {
      url = new URL(target)
    } catch {
      return badRequest(`request-target ${JSON.stringify(target)} is neither a path nor a URL`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return badRequest(`request-target scheme ${url.protocol} is not http or https`)
    if (url.username !== '' || url.password !== '')
      return badRequest('request-target carries user information')
    path = `${url.pathname}${url.search}`
    effectiveHost = url.host
  }
  if (!isLoopbackHost(effectiveHost)) {
    return {
      answer: {
        status: 403,
        text:
          `edgedns dev: this server answers only requests addressed to this machine (localhost, ` +
          `127.0.0.0/8 or [::1]); this one is addressed to ${JSON.stringify(effectiveHost ?? '')}\n`,
      },
    }
  }
  return { forward: { path, host: effectiveHost } }
}

function badRequest(why) {
  return { answer: { status: 400, text: `edgedns dev: bad request: ${why}\n` } }
}
