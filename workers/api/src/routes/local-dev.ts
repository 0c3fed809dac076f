/**
 * @module GET /client/v4/local_dev: tells the dashboard it runs under local development and offers
 * the dev token. It exists only when DEV_API_TOKEN is set (wrangler dev via `pnpm dev`, never
 * deployed); elsewhere it is an unknown route. No CORS header: other origins cannot read it, and
 * a page that rebinds its own name to 127.0.0.1 is refused before it gets here (http/loopback.ts).
 */
import { Hono } from 'hono'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { ok } from '../http/envelope.ts'

export const localDevApp = new Hono<AppEnv>()

localDevApp.get('/local_dev', (c) => {
  const token = c.env.DEV_API_TOKEN
  if (!token)
    throw ApiError.badRequest(Codes.noRoute, 'No route for that URI: GET /client/v4/local_dev')
  c.header('cache-control', 'no-store')
  return ok(c, { dev_token: token })
})
