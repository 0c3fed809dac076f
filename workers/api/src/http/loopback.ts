/**
 * @module Local development answers only requests addressed to this machine. A page on another
 * site can make a browser send requests to 127.0.0.1 under the page's own host name (DNS
 * rebinding); those requests carry that name in `Host`. While DEV_API_TOKEN is set (local
 * development, never deployed), every request whose host is not a loopback name is refused before
 * any route sees it: `GET /client/v4/local_dev` (which hands out the dev token), the dev token
 * itself, every other token, and `/dns-query`. Which hosts are loopback is the one rule in
 * `@edgedns/dns-facts` (isLoopbackHost), which the local stack's fronts apply too.
 *
 * Both the request URL's host and the `Host` header as sent must be loopback: the runtime makes the
 * URL from the header and tidies it (`Host: localhost:` gives `http://localhost/`), and the fronts
 * judge the header, so the worker judges it too and the two agree. A `Host` the runtime cannot make
 * a URL of at all (`localhost:99999`) gets a plain-text 500 from workerd before this worker runs
 * (Miniflare's entry worker: "Invalid URL string"); the fronts refuse it (403) before forwarding.
 */
import { isLoopbackHost } from '@edgedns/dns-facts'
import { createMiddleware } from 'hono/factory'
import { ApiError, Codes } from './api-error.ts'
import type { AppEnv } from './app-env.ts'

/**
 * Whether the request may be served: always when deployed, else only when addressed to loopback,
 * by its URL and by its `Host` header (`host`, null when the request has none).
 */
export function hostAllowed(
  env: { DEV_API_TOKEN?: string },
  url: URL,
  host: string | null
): boolean {
  return !env.DEV_API_TOKEN || (isLoopbackHost(url.host) && (host === null || isLoopbackHost(host)))
}

/** Refuses (403) a request that `hostAllowed` does not allow, with the Cloudflare envelope. */
export const loopbackOnly = createMiddleware<AppEnv>(async (c, next) => {
  const url = new URL(c.req.url)
  const host = c.req.header('host') ?? null
  if (!hostAllowed(c.env, url, host))
    throw new ApiError(
      403,
      Codes.notLoopbackHost,
      `Local development answers only requests addressed to this machine (localhost, 127.0.0.0/8 or [::1]); this one is addressed to ${JSON.stringify(host ?? url.host)}`
    )
  await next()
})
