/**
 * @module Request bodies are read as sent: a body with a content coding other than `identity`
 * (`Content-Encoding: gzip`, `br`, …) is refused with 415 (RFC 9110 §15.5.16), naming the coding
 * and saying what is accepted (`Accept-Encoding: identity`, §12.5.3), before anything reads it.
 * Without this the compressed octets would be decoded as text and refused as invalid UTF-8 (9208).
 */
import { createMiddleware } from 'hono/factory'
import { ApiError, Codes } from './api-error.ts'
import type { AppEnv } from './app-env.ts'

/** Whether a Content-Encoding value leaves the body as it is (`identity`, in any case, or nothing). */
export function isIdentityCoding(value: string): boolean {
  return value
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .every((coding) => coding === '' || coding === 'identity')
}

export const identityBodies = createMiddleware<AppEnv>(async (c, next) => {
  const coding = c.req.header('content-encoding')
  if (coding !== undefined && c.req.raw.body !== null && !isIdentityCoding(coding))
    throw new ApiError(
      415,
      Codes.unsupportedContentEncoding,
      `Content-Encoding ${JSON.stringify(coding)} is not supported: send the request body uncompressed (identity)`,
      { headers: { 'accept-encoding': 'identity' } }
    )
  await next()
})
