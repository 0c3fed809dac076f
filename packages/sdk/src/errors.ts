/**
 * @module EdgeDnsError: the one error type of the SDK, for API faults, DoH faults, timeouts and
 * network failures alike.
 */

export type ErrorKind = 'api' | 'doh' | 'timeout' | 'pending' | 'network'

export interface ErrorInit {
  kind: ErrorKind
  status: number
  code: number
  message: string
  pointer?: string
  errors?: { code: number; message: string }[]
  /** For chunked batches: changes committed by earlier chunks before this one failed. */
  appliedChanges?: number
  /** For a 429: the wait its `retry-after` asked for. */
  retryAfterMs?: number
}

export class EdgeDnsError extends Error {
  readonly kind: ErrorKind
  /** HTTP status; 0 when no response arrived (timeout, network). */
  readonly status: number
  /** Cloudflare-style error code of the first error (0 when the server sent none). */
  readonly code: number
  /** JSON pointer of the offending batch item, when the server gave one (e.g. `/posts/3`). */
  readonly pointer: string | undefined
  /** Every error item of the response. */
  readonly errors: { code: number; message: string }[]
  readonly appliedChanges: number | undefined
  /** For a 429 (thrown once retries are spent or turned off): the wait `retry-after` asked for, in ms. */
  readonly retryAfterMs: number | undefined

  constructor(init: ErrorInit) {
    super(init.message)
    this.name = 'EdgeDnsError'
    this.kind = init.kind
    this.status = init.status
    this.code = init.code
    this.pointer = init.pointer
    this.errors = init.errors ?? [{ code: init.code, message: init.message }]
    this.appliedChanges = init.appliedChanges
    this.retryAfterMs = init.retryAfterMs
  }
}

interface ErrorItem {
  code?: number
  message?: string
  source?: { pointer?: string }
}

/** Builds the error for a non-2xx (or success:false) API answer from its body text. */
export function apiError(status: number, text: string, retryAfterMs?: number): EdgeDnsError {
  let items: ErrorItem[] = []
  try {
    const body = JSON.parse(text) as { errors?: ErrorItem[] }
    items = Array.isArray(body.errors) ? body.errors : []
  } catch {
    // not JSON: keep the text as the message
  }
  const first = items[0]
  return new EdgeDnsError({
    kind: 'api',
    status,
    code: first?.code ?? 0,
    message: first?.message ?? (text.slice(0, 200) || `HTTP ${status}`),
    pointer: first?.source?.pointer,
    errors: items.map((e) => ({ code: e.code ?? 0, message: e.message ?? '' })),
    retryAfterMs,
  })
}
