/** @module ttl: record TTL validation (1 = automatic, else 60..86400 seconds). */
import { ERROR_CODES, RecordError } from './errors.ts'

/** Seconds that TTL 1 ("automatic") stands for when a record is served. */
export const AUTO_TTL_SECONDS = 300

export const MIN_TTL = 60
export const MAX_TTL = 86400

/**
 * Validate a TTL from an API body. `undefined` means "not given" and yields 1 (automatic), the
 * Cloudflare default. Anything else must be the number 1 or an integer in 60..86400.
 */
export function validateTtl(ttl: unknown): number {
  if (ttl === undefined) return 1
  if (typeof ttl === 'number' && Number.isInteger(ttl)) {
    if (ttl === 1 || (ttl >= MIN_TTL && ttl <= MAX_TTL)) return ttl
  }
  throw new RecordError(
    ERROR_CODES.TTL_INVALID,
    'Invalid TTL. Must be between 60 and 86400 seconds, or 1 for automatic.'
  )
}
