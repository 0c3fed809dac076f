/**
 * @module A scripted fetch for SDK unit tests: records every call and answers from a handler.
 */
import type { Fetch } from './http.ts'

export interface Call {
  method: string
  url: URL
  headers: Record<string, string>
  body: unknown
}

export type Handler = (call: Call, index: number) => Response | Promise<Response>

export function envelope(
  result: unknown,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  status = 200
): Response {
  return new Response(
    JSON.stringify({ success: status < 400, errors: [], messages: [], result, ...extra }),
    {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    }
  )
}

export function failure(status: number, code: number, message: string, pointer?: string): Response {
  const item: Record<string, unknown> = { code, message }
  if (pointer) item.source = { pointer }
  return new Response(
    JSON.stringify({ success: false, errors: [item], messages: [], result: null }),
    { status, headers: { 'content-type': 'application/json' } }
  )
}

export function scripted(handler: Handler): { fetch: Fetch; calls: Call[] } {
  const calls: Call[] = []
  const fetch: Fetch = async (input, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries())
    let body: unknown = init.body
    if (typeof body === 'string' && headers['content-type'] === 'application/json')
      body = JSON.parse(body)
    const call = { method: init.method ?? 'GET', url: new URL(input), headers, body }
    calls.push(call)
    return handler(call, calls.length - 1)
  }
  return { fetch, calls }
}
