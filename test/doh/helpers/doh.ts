/**
 * @module Test helper: drive the DoH worker in-process (GET ?dns=, POST, JSON) and decode answers.
 */
import { exports } from 'cloudflare:workers'
import {
  decodeMessage,
  encodeQuery,
  rcodeName,
  rrLine as line,
  type Message,
  type QueryInit as QueryOptions,
} from '../../../packages/dns-wire/src/index.ts'

export const BASE = 'https://doh.test/dns-query'

export function fetchDoh(url: string, init?: RequestInit): Promise<Response> {
  return (exports as any).default.fetch(url, init) as Promise<Response>
}

export function base64url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export const getWire = (bytes: Uint8Array, headers: Record<string, string> = {}) =>
  fetchDoh(`${BASE}?dns=${base64url(bytes)}`, {
    headers: { accept: 'application/dns-message', ...headers },
  })

export const postWire = (bytes: Uint8Array, headers: Record<string, string> = {}) =>
  fetchDoh(BASE, {
    method: 'POST',
    headers: {
      'content-type': 'application/dns-message',
      accept: 'application/dns-message',
      ...headers,
    },
    body: bytes,
  })

export const getJson = (
  query: string,
  headers: Record<string, string> = { accept: 'application/dns-json' }
) => fetchDoh(`${BASE}?${query}`, { headers })

export interface WireAnswer {
  status: number
  cacheControl: string | null
  message: Message
  rcode: string
  answer: string[]
  authority: string[]
  additional: string[]
}

/** Asks over GET or POST and decodes the DNS message (the HTTP status must be 200). */
export async function ask(
  name: string,
  type: string | number,
  options: QueryOptions & { method?: 'GET' | 'POST' } = {}
): Promise<WireAnswer> {
  const bytes = encodeQuery(name, type, options)
  const res = options.method === 'POST' ? await postWire(bytes) : await getWire(bytes)
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`)
  if (res.headers.get('content-type') !== 'application/dns-message')
    throw new Error('not a DNS message')
  const message = decodeMessage(new Uint8Array(await res.arrayBuffer()))
  return {
    status: res.status,
    cacheControl: res.headers.get('cache-control'),
    message,
    rcode: rcodeName(message.rcode),
    answer: message.answer.map(line),
    authority: message.authority.map(line),
    additional: message.additional.map(line).sort(),
  }
}

/** Asks the JSON API; returns status, headers and the parsed body. */
export async function askJson(
  name: string,
  type = 'A',
  extra = ''
): Promise<{ status: number; headers: Headers; body: any }> {
  const q = `name=${encodeURIComponent(name)}&type=${encodeURIComponent(type)}${extra}`
  const res = await getJson(q)
  return { status: res.status, headers: res.headers, body: await res.json() }
}

/** Both transports agree: GET and POST give byte-identical messages. */
export async function askBoth(
  name: string,
  type: string | number,
  options: QueryOptions = {}
): Promise<WireAnswer> {
  const get = await ask(name, type, { ...options, method: 'GET' })
  const post = await ask(name, type, { ...options, method: 'POST' })
  if (JSON.stringify(get.message) !== JSON.stringify(post.message))
    throw new Error('GET and POST differ')
  return get
}
