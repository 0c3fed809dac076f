/**
 * @module Maps every thrown error to the Cloudflare envelope, in one place.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { RecordError } from '@edgedns/records'
import { ApiError, Codes } from './api-error.ts'

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  if (err instanceof RecordError) return ApiError.badRequest(err.code, err.message)
  if (err instanceof HTTPException)
    return new ApiError(err.status as 400, Codes.invalidRequest, err.message || 'Bad request')
  if (isMissingSchema(err)) {
    return new ApiError(
      503,
      Codes.internal,
      'The database has no schema yet: apply the migrations (locally `npx wrangler d1 migrations apply edgedns --local`, or run `pnpm dev`; deployed: `pnpm run deploy`)'
    )
  }
  return new ApiError(500, Codes.internal, 'Internal server error')
}

/** A D1 error saying a table is missing: the migrations were never applied to this database. */
function isMissingSchema(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (/no such table: (zones|accounts|api_tokens|dns_records)\b/.test(e.message)) return true
  }
  return false
}

export function onError(err: unknown, c: Context): Response {
  const e = toApiError(err)
  // A fault (anything not thrown as an ApiError, or a 500) is logged with its stack; a 502–504 the
  // API answers on purpose (a primary that does not answer, a database busy elsewhere) in one line;
  // a fenced account's writes are expected 503s (retryable), not logged.
  if (!(err instanceof ApiError) || e.status === 500) {
    if (e.status >= 500) console.error('unhandled error', err)
  } else if (e.status > 500 && e.code !== Codes.accountMoving)
    console.warn(`answered ${e.status} (code ${e.code}): ${e.message}`)
  const item: Record<string, unknown> = { code: e.code, message: e.message }
  if (e.extra.errorChain) item.error_chain = e.extra.errorChain
  if (e.extra.pointer) item.source = { pointer: e.extra.pointer }
  return c.json(
    { success: false, errors: [item], messages: [], result: null },
    e.status,
    e.extra.headers
  )
}
