/**
 * @module Rate limits on abusable operations, through the Workers rate-limiting bindings declared
 * in wrangler.toml (per Cloudflare location, best effort): failed authentications per client
 * address, and full rebuilds per zone. Over the limit, the API answers 429 with `retry-after`.
 */
import { ApiError, Codes } from './api-error.ts'

/** Period of both limiters in wrangler.toml, in seconds (the binding's `simple.period`). */
const RATE_LIMIT_PERIOD_S = 60

/** Counts one event under `key`; throws 429 once the limiter's budget for the period is spent. */
export async function spend(limiter: RateLimit, key: string, what: string): Promise<void> {
  const { success } = await limiter.limit({ key })
  if (!success) throw rateLimited(what)
}

export function rateLimited(what: string): ApiError {
  return new ApiError(
    429,
    Codes.rateLimited,
    `Rate limited: too many ${what}; retry in ${RATE_LIMIT_PERIOD_S} seconds`,
    {
      headers: { 'retry-after': String(RATE_LIMIT_PERIOD_S) },
    }
  )
}

/** The client's address as Cloudflare's edge reports it ('unknown' where there is no edge). */
export function clientAddress(headers: { get(name: string): string | null }): string {
  return headers.get('cf-connecting-ip') ?? 'unknown'
}

/**
 * Addresses over their failed-authentication budget, refused before any token lookup until the
 * period ends (this isolate only: the binding has no way to ask without counting). Bounded.
 */
const refusedUntil = new Map<string, number>()
const MAX_REFUSED = 10_000

export function authRefused(address: string, now = Date.now()): boolean {
  const until = refusedUntil.get(address)
  if (until === undefined) return false
  if (until > now) return true
  refusedUntil.delete(address)
  return false
}

/** Counts a failed authentication from `address`; throws 429 (and refuses it for a period) past the limit. */
export async function spendAuthFailure(
  limiter: RateLimit,
  address: string,
  now = Date.now()
): Promise<void> {
  const { success } = await limiter.limit({ key: address })
  if (success) return
  if (refusedUntil.size >= MAX_REFUSED) refusedUntil.clear()
  refusedUntil.set(address, now + RATE_LIMIT_PERIOD_S * 1000)
  throw rateLimited('failed authentications from this address')
}
