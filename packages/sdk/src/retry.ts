/**
 * @module Retrying rate-limited requests. A 429 means the API refused the request before doing
 * anything (per-token and per-zone limits are checked first), so any method may be sent again,
 * writes included; nothing else is retried, since a failed write may have been applied.
 */

export interface RetryOptions {
  /** Retries after a 429 before the 429 is thrown (default 2; 0 turns retrying off). */
  maxRetries?: number
  /**
   * Longest wait for one retry (default 60 s). A 429 whose `retry-after` asks for longer is thrown
   * at once: waiting less would only meet the limit again.
   */
  maxDelayMs?: number
  /** How to wait (default a timer); tests pass a fake. */
  sleep?: (ms: number) => Promise<void>
  /** The clock `retry-after` dates are read against (default `Date.now`); tests pass a fake. */
  now?: () => number
}

export interface RetryPolicy {
  maxRetries: number
  maxDelayMs: number
  sleep: (ms: number) => Promise<void>
  now: () => number
}

const timer = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export function retryPolicy(opts: RetryOptions | false | undefined): RetryPolicy {
  const o = opts === false ? { maxRetries: 0 } : (opts ?? {})
  return {
    maxRetries: Math.max(0, o.maxRetries ?? 2),
    maxDelayMs: Math.max(0, o.maxDelayMs ?? 60_000),
    sleep: o.sleep ?? timer,
    now: o.now ?? Date.now,
  }
}

/**
 * The wait `retry-after` asks for, in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when the header is absent or unreadable. A date in the past asks for no wait.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Wait before retry number `attempt` (0-based) when the 429 named none: 1 s, doubling. */
export function fallbackDelayMs(attempt: number): number {
  return 1000 * 2 ** attempt
}
