/**
 * @module The transport: fetch with the bearer token, the v4 envelope unwrapped, errors typed,
 * rate-limited requests retried after `retry-after`, and the `x-edgedns-change-seq` header of
 * writes surfaced. Uses only fetch, URL and FormData, so it runs in Workers, browsers and Node 18+.
 */
import { apiError, EdgeDnsError } from './errors.ts'
import {
  fallbackDelayMs,
  retryAfterMs,
  retryPolicy,
  type RetryOptions,
  type RetryPolicy,
} from './retry.ts'
import { CHANGE_SEQ_HEADER } from './api-types.generated.ts'

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>

export interface ClientOptions {
  /** Server root, e.g. `http://127.0.0.1:8787` (a trailing `/client/v4` is accepted too). */
  baseUrl: string
  /** API token (sent as `Authorization: Bearer <token>`). */
  token?: string
  /** DoH endpoint; default `<baseUrl>/dns-query`. */
  dohUrl?: string
  /** Custom fetch (tests, proxies); default the global fetch. */
  fetch?: Fetch
  /** Extra headers on every API request. */
  headers?: Record<string, string>
  /**
   * Retrying of rate-limited (429) API requests, after their `retry-after`: default 2 retries,
   * waits of at most 60 s; `false` turns it off.
   */
  retry?: RetryOptions | false
}

export type Query = Record<string, string | number | boolean | undefined | (string | number)[]>

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  query?: Query
  json?: unknown
  form?: FormData
  /** Answer is text (export), not an envelope. */
  text?: boolean
}

export interface Envelope<T> {
  result: T
  result_info?: {
    page: number
    per_page: number
    count: number
    total_count: number
    total_pages: number
  }
  messages: { code: number; message: string }[]
  /** Committed change-log sequence of a write, from `x-edgedns-change-seq`. */
  changeSeq: number | undefined
}

function rootOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/client\/v4$/, '')
}

function queryString(q: Query | undefined): string {
  if (!q) return ''
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue
    for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one))
  }
  const s = params.toString()
  return s === '' ? '' : `?${s}`
}

export class Transport {
  readonly apiBase: string
  readonly dohUrl: string
  readonly fetch: Fetch
  private readonly headers: Record<string, string>
  private readonly retry: RetryPolicy
  /** Sequence of the last write this client made, if the server reported one. */
  lastChangeSeq: number | undefined

  constructor(opts: ClientOptions) {
    const root = rootOf(opts.baseUrl)
    this.apiBase = `${root}/client/v4`
    this.dohUrl = opts.dohUrl ?? `${root}/dns-query`
    this.fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.headers = {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    }
    this.retry = retryPolicy(opts.retry)
  }

  async send(spec: RequestSpec): Promise<Response> {
    const headers: Record<string, string> = {
      ...this.headers,
      accept: spec.text ? 'text/plain' : 'application/json',
    }
    let body: BodyInit | undefined
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(spec.json)
    } else if (spec.form) body = spec.form
    const url = `${this.apiBase}${spec.path}${queryString(spec.query)}`
    for (let attempt = 0; ; attempt++) {
      let res: Response
      try {
        res = await this.fetch(url, { method: spec.method, headers, body })
      } catch (e) {
        throw new EdgeDnsError({
          kind: 'network',
          status: 0,
          code: 0,
          message: `${spec.method} ${url} failed: ${(e as Error).message ?? e}`,
        })
      }
      if (res.ok) return res
      const text = await res.text()
      if (res.status !== 429) throw apiError(res.status, text)
      // Rate limited: the request was refused unprocessed, so it may be sent again.
      const asked = retryAfterMs(res.headers.get('retry-after'), this.retry.now())
      const wait = asked ?? fallbackDelayMs(attempt)
      if (attempt >= this.retry.maxRetries || wait > this.retry.maxDelayMs)
        throw apiError(res.status, text, asked)
      await this.retry.sleep(wait)
    }
  }

  async request<T>(spec: RequestSpec): Promise<Envelope<T>> {
    const res = await this.send(spec)
    const text = await res.text()
    let body: {
      success?: boolean
      result: T
      result_info?: Envelope<T>['result_info']
      messages?: Envelope<T>['messages']
    }
    try {
      body = JSON.parse(text)
    } catch {
      throw new EdgeDnsError({
        kind: 'api',
        status: res.status,
        code: 0,
        message: `expected a JSON envelope, got: ${text.slice(0, 200)}`,
      })
    }
    if (body.success === false) throw apiError(res.status, text)
    const seq = res.headers.get(CHANGE_SEQ_HEADER)
    const changeSeq = seq === null ? undefined : Number(seq)
    if (changeSeq !== undefined) this.lastChangeSeq = changeSeq
    return {
      result: body.result,
      result_info: body.result_info,
      messages: body.messages ?? [],
      changeSeq,
    }
  }

  async result<T>(spec: RequestSpec): Promise<T> {
    return (await this.request<T>(spec)).result
  }

  async text(spec: RequestSpec): Promise<string> {
    return (await this.send({ ...spec, text: true })).text()
  }
}

/** Attaches `changeSeq` to a write's result without making it part of its JSON. */
export function withSeq<T extends object>(
  result: T,
  changeSeq: number | undefined
): T & { readonly changeSeq: number | undefined } {
  Object.defineProperty(result, 'changeSeq', { value: changeSeq, enumerable: false })
  return result as T & { readonly changeSeq: number | undefined }
}
