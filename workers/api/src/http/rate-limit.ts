/**
 * @module Rate limits on abusable operations, through the Workers rate-limiting bindings declared
 * in wrangler.toml (per Cloudflare location, best effort): failed authentications per client
 * address, full rebuilds per zone, and activation checks per zone (requests per token:
 * token-rate-limit.ts). Over the limit,
 * the API answers 429 with `retry-after`.
 */
import { ApiError, Codes } from './api-error.ts'

/** Period of these limiters in wrangler.toml, in seconds (the binding's `simple.period`). */
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
 * Addresses over their failed-authentication budget, remembered until the period ends (this
 * isolate only: the binding has no way to ask without counting). Bounded. Consulted only once a
 * presented token has been found invalid: a valid token is never refused for its address.
 */
const refusedUntil = new Map<string, number>()
const MAX_REFUSED = 10_000

function authRefused(address: string, now = Date.now()): boolean {
  const until = refusedUntil.get(address)
  if (until === undefined) return false
  if (until > now) return true
  refusedUntil.delete(address)
  return false
}

/**
 * Counts a failed authentication from `address` and says whether the address is now over its
 * budget (the caller answers 429 then, 403 otherwise). An address already known to be over it is
 * not counted again, so its failures cost no more than anyone else's.
 */
export async function failedAuthenticationOverBudget(
  limiter: RateLimit,
  address: string,
  now = Date.now()
): Promise<boolean> {
  if (authRefused(address, now)) return true
  const { success } = await limiter.limit({ key: address })
  if (success) return false
  if (refusedUntil.size >= MAX_REFUSED) refusedUntil.clear()
  refusedUntil.set(address, now + RATE_LIMIT_PERIOD_S * 1000)
  return true
}
