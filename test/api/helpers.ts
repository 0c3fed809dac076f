/**
 * Test helpers: drive the API worker in-process, as a client would.
 */
import { exports } from 'cloudflare:workers'
import { expect } from 'vitest'

export const DEV_TOKEN = 'dev-token'
export const DEFAULT_ACCOUNT = 'a0000000000000000000000000000001'

export interface ApiResponse<T = any> {
  status: number
  body: {
    success: boolean
    errors: { code: number; message: string; source?: { pointer: string } }[]
    messages?: { code: number; message: string }[]
    result: T
    result_info?: any
  }
  headers: Headers
}

export async function api<T = any>(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = DEV_TOKEN,
  rawBody?: string
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token !== null) headers.authorization = `Bearer ${token}`
  const sent = rawBody ?? (body === undefined ? undefined : JSON.stringify(body))
  return request(method, path, sent, headers)
}

/**
 * The client address of the current test file's requests (`cf-connecting-ip`, IPv6 documentation
 * space). The worker counts failed authentications per address in module state, which the files
 * sharing a runtime share: one address for all of them would let one file's bad tokens turn
 * another's 403s into 429s.
 */
function fileAddress(): string {
  let h = 0
  for (const ch of expect.getState().testPath ?? '') h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0
  return `2001:db8:${(h >>> 16).toString(16)}:${(h & 0xffff).toString(16)}::1`
}

/**
 * A request with its body as given (not JSON-encoded) and exactly the headers given, from the
 * file's own client address unless they name one.
 */
export async function request(
  method: string,
  path: string,
  body: BodyInit | undefined,
  headers: Record<string, string>
): Promise<ApiResponse> {
  // Addressed to loopback: with DEV_API_TOKEN set (as here) the worker refuses any other host.
  const res = await (exports as any).default.fetch(`http://localhost/client/v4${path}`, {
    method,
    headers: { 'cf-connecting-ip': fileAddress(), ...headers },
    body,
  })
  const text = await res.text()
  let parsed: any
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = text
  }
  return { status: res.status, body: parsed, headers: res.headers }
}

let counter = 0
/** A fresh zone with a unique name; returns its id and name. */
/** A zone of the default account (`type`: the API's default, full, unless given). */
export async function createZone(
  prefix = 'zone',
  type?: 'full' | 'partial' | 'secondary' | 'internal'
): Promise<{ id: string; name: string }> {
  const name = `${prefix}-${Date.now().toString(36)}-${counter++}.example`
  const res = await api('POST', '/zones', { name, account: { id: DEFAULT_ACCOUNT }, type })
  if (res.status !== 200) throw new Error(`createZone failed: ${JSON.stringify(res.body)}`)
  return { id: res.body.result.id, name }
}

export function expectError(res: ApiResponse, status: number, code: number): void {
  if (res.status !== status || res.body.success !== false || res.body.errors[0]?.code !== code) {
    throw new Error(`expected ${status}/${code}, got ${res.status} ${JSON.stringify(res.body)}`)
  }
}

/** An answer of the DoH JSON API the API worker serves at /dns-query. */
export interface DohJsonAnswer {
  Status: number
  Answer?: { name: string; type: number; TTL: number; data: string }[]
}

/** Asks the API worker's DoH JSON API for `name` and `type` (a 200 expected). */
export async function dohJson(name: string, type: string): Promise<DohJsonAnswer> {
  const res: Response = await (exports as any).default.fetch(
    `http://localhost/dns-query?name=${name}&type=${type}`,
    { headers: { accept: 'application/dns-json' } }
  )
  if (res.status !== 200) throw new Error(`DoH ${name} ${type}: HTTP ${res.status}`)
  return res.json()
}
