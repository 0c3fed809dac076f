/**
 * @module Requests per API token, through the TOKEN_LIMITER rate-limiting binding (wrangler.toml).
 *
 * Each account sets its tokens' budget per RATE_LIMIT_WINDOW_S, the unit Cloudflare states its own
 * budget in. A binding's limit and period are fixed for all its keys, and its period is shorter
 * than that window, so the budget is counted one binding period at a time, in proportion, and
 * spread over several keys of the binding, each allowed KEY_LIMIT per period: a budget uses
 * budget / API_RATE_LIMIT_STEP keys, and a token's requests take those keys in turn. One binding
 * call per request, whatever the account's setting. Like every rate-limiting binding, the counts
 * are kept per Cloudflare location, best effort.
 *
 * Answers carry the IETF rate-limit fields Cloudflare sends: `ratelimit-policy` always;
 * `ratelimit` (remaining quota and reset) and `retry-after` with a 429, the only time the count
 * is known (the binding answers only whether a request is within the limit).
 */
import { ApiError, Codes } from './api-error.ts'

/** TOKEN_LIMITER's `simple` settings in wrangler.toml. */
const KEY_LIMIT = 60
const KEY_PERIOD_S = 60

/** The unit of the account setting, in seconds. */
export const RATE_LIMIT_WINDOW_S = 300
/** Cloudflare's budget per window. */
export const DEFAULT_API_RATE_LIMIT = 1200
/** The setting is a multiple of what one key allows in the window. */
export const API_RATE_LIMIT_STEP = KEY_LIMIT * (RATE_LIMIT_WINDOW_S / KEY_PERIOD_S)
export const MAX_API_RATE_LIMIT = 60_000

/** Requests per binding period actually enforced for a budget given per window. */
function perPeriod(perWindow: number): number {
  return (perWindow * KEY_PERIOD_S) / RATE_LIMIT_WINDOW_S
}

export function rateLimitPolicy(perWindow: number): string {
  return `"default";q=${perPeriod(perWindow)};w=${KEY_PERIOD_S}`
}

/** The next key slot of each token in this isolate; bounded. */
const nextSlot = new Map<string, number>()
const MAX_TRACKED = 10_000

function slotFor(tokenId: string, slots: number): number {
  let n = nextSlot.get(tokenId)
  if (n === undefined) {
    if (nextSlot.size >= MAX_TRACKED) nextSlot.clear()
    // Isolates start at different keys, so that together they fill a token's keys evenly.
    n = Math.floor(Math.random() * slots)
  }
  nextSlot.set(tokenId, (n + 1) % slots)
  return n % slots
}

/** Counts one request of `tokenId`; throws 429 once its budget for the period is spent. */
export async function spendTokenRequest(
  limiter: RateLimit,
  tokenId: string,
  perWindow: number
): Promise<void> {
  const slots = Math.max(1, Math.floor(perWindow / API_RATE_LIMIT_STEP))
  const { success } = await limiter.limit({ key: `${tokenId}:${slotFor(tokenId, slots)}` })
  if (success) return
  throw new ApiError(
    429,
    Codes.rateLimited,
    `Rate limited: this token made more than its account's ${perWindow} requests per ${RATE_LIMIT_WINDOW_S / 60} minutes (counted as ${perPeriod(perWindow)} per ${KEY_PERIOD_S} seconds); retry in ${KEY_PERIOD_S} seconds`,
    {
      headers: {
        'retry-after': String(KEY_PERIOD_S),
        ratelimit: `"default";r=0;t=${KEY_PERIOD_S}`,
        'ratelimit-policy': rateLimitPolicy(perWindow),
      },
    }
  )
}
