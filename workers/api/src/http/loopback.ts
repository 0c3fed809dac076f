/**
 * @module Local development answers only requests addressed to this machine. A page on another
 * site can make a browser send requests to 127.0.0.1 under the page's own host name (DNS
 * rebinding); those requests carry that name in `Host`. While DEV_API_TOKEN is set (local
 * development, never deployed), every request whose host is not a loopback name is refused before
 * any route sees it: `GET /client/v4/local_dev` (which hands out the dev token), the dev token
 * itself, every other token, and `/dns-query`. Which hosts are loopback is the one rule in
 * `@edgedns/dns-facts` (isLoopbackHost), which the local stack's fronts apply too.
 */
import { isLoopbackHost } from '@edgedns/dns-facts'
import { createMiddleware } from 'hono/factory'
import { ApiError, Codes } from './api-error.ts'
import type { AppEnv } from './app-env.ts'

/** Whether the request may be served: always when deployed, else only when addressed to loopback. */
export function hostAllowed(env: { DEV_API_TOKEN?: string }, url: URL): boolean {
  return !env.DEV_API_TOKEN || isLoopbackHost(url.hostname)
}

/** Refuses (403) a request that `hostAllowed` does not allow, with the Cloudflare envelope. */
export const loopbackOnly = createMiddleware<AppEnv>(async (c, next) => {
  const url = new URL(c.req.url)
  if (!hostAllowed(c.env, url))
    throw new ApiError(
      403,
      Codes.notLoopbackHost,
      `Local development answers only requests addressed to this machine (localhost, 127.0.0.0/8 or [::1]); this one is addressed to ${JSON.stringify(url.host)}`
    )
  await next()
})
