/**
 * @module What the bad-input tests of the zone-transfer API share: the refusal they expect (a 4xx
 * in the Cloudflare envelope with a specific code), raw requests with bodies as given, malformed
 * bodies, and another account's id.
 */
import { expect } from 'vitest'
import { api, DEV_TOKEN, request, type ApiResponse } from './helpers.ts'
import { unique } from './secondary-dns-helpers.ts'

/** A refusal in the Cloudflare envelope: `status`, and `code` first among the errors. */
export function refused(res: ApiResponse, status: number, code: number): void {
  const detail = `${res.status} ${JSON.stringify(res.body).slice(0, 400)}`
  expect(res.status, detail).toBe(status)
  expect(res.body, detail).toMatchObject({ success: false, messages: [], result: null })
  expect(res.body.errors.length, detail).toBeGreaterThan(0)
  expect(res.body.errors[0]!.code, detail).toBe(code)
  expect(res.body.errors[0]!.message, detail).toMatch(/\S/)
}

/** A raw request with a body as given (not JSON-encoded) and the content type given. */
export function raw(
  method: string,
  path: string,
  body: BodyInit | undefined,
  contentType = 'application/json',
  extra: Record<string, string> = {}
): Promise<ApiResponse> {
  return request(method, path, body, {
    authorization: `Bearer ${DEV_TOKEN}`,
    'content-type': contentType,
    ...extra,
  })
}

export const BIG = 'a'.repeat(100_000)
export const MISSING = 'f'.repeat(32)

/** Bodies no write endpoint accepts, with the code each gets. */
export const MALFORMED_BODIES: [string, string, number][] = [
  ['empty body', '', 9207],
  ['truncated JSON', '{"name": "x', 9207],
  ['trailing garbage', '{"name": "x"} x', 9207],
  ['a JSON array', '[]', 9000],
  ['a JSON string', '"tsig"', 9000],
  ['a JSON number', '42', 9000],
  ['JSON null', 'null', 9000],
]

export async function otherAccount(): Promise<string> {
  const res = await api('POST', '/accounts', { name: `xfr-other-${unique('a')}` })
  expect(res.status).toBe(200)
  return res.body.result.id
}
