/**
 * @module A token's `last_used_on`, recorded without a database write per request: each API
 * isolate writes it at most once an hour per token (and not when the row read shows a use within
 * the hour, from another isolate), in the background (`waitUntil`), after the response. A failed
 * write is logged and otherwise ignored: it never fails the request. So `last_used_on` is accurate
 * to within an hour.
 */
import { eq } from 'drizzle-orm'
import { apiTokens } from '../db/schema.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { Background } from './verified-tokens.ts'

/** How stale `last_used_on` may be: an isolate records a token's use at most this often. */
const LAST_USED_EVERY_MS = 3_600_000
/** Tokens whose last write an isolate remembers; past it the memory is cleared (a few more writes). */
const REMEMBERED = 10_000

/** When this isolate last wrote each token's `last_used_on` (ms since the epoch). */
const written = new Map<string, number>()

/**
 * Records that `token` authenticated now, unless it was recorded within the hour (by this
 * isolate, or as the row read shows).
 */
export function noteTokenUse(
  db: AppEnv['Variables']['db'],
  token: { id: string; lastUsedOn: string | null },
  background: Background,
  now = Date.now()
): void {
  const stored = token.lastUsedOn === null ? 0 : Date.parse(token.lastUsedOn)
  const last = Math.max(written.get(token.id) ?? 0, Number.isNaN(stored) ? 0 : stored)
  if (now - last < LAST_USED_EVERY_MS) return
  if (written.size >= REMEMBERED) written.clear()
  written.set(token.id, now)
  const at = new Date(now).toISOString()
  background(
    db
      .update(apiTokens)
      .set({ lastUsedOn: at })
      .where(eq(apiTokens.id, token.id))
      .run()
      .catch((e: unknown) => console.warn('last_used_on not recorded', token.id, e))
  )
}
