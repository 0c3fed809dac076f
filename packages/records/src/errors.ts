/** @module errors: the typed user-fault error and the Cloudflare codes this package throws. */

/** User fault with a Cloudflare error code; the API maps it to an HTTP 400 envelope. */
export class RecordError extends Error {
  override name = 'RecordError'
  constructor(
    public code: number,
    message: string
  ) {
    super(message)
  }
}

/** Cloudflare error codes used by this package (see README for the per-type table). */
export const ERROR_CODES = Object.freeze({
  NAME_INVALID: 9000,
  PRIORITY_INVALID: 9008,
  TYPE_INVALID: 9020,
  TTL_INVALID: 9021,
  PRIORITY_REQUIRED: 9100,
  ZONE_NAME_INVALID: 1099,
})

/**
 * Internal: a low-level parser's reason for rejecting a value. The registry turns it into a
 * RecordError carrying the record type's own code, so parsers need not know which type they serve.
 */
export class FieldError extends Error {
  override name = 'FieldError'
}

/** Throw a FieldError; handy in expressions. */
export function fail(reason: string): never {
  throw new FieldError(reason)
}
