/** @module errors: the typed user-fault error and the Cloudflare codes this package throws. */

/** User fault with a Cloudflare error code; the API maps it to an HTTP 400 envelope. */
export class RecordError extends Error {
  override name = 'RecordError'
  code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * The record-level error codes: faults of one record's fields and of a record against the others at
 * its name. Cloudflare's own numbers. The API's table (`Codes`) extends this one, so each number
 * has one home; the per-type content codes (9005, 9006, ...) are each type's `errorCode` in
 * `REGISTRY`.
 */
export const ERROR_CODES = Object.freeze({
  /** A field missing or of the wrong type, or an invalid DNS name. */
  NAME_INVALID: 9000,
  PRIORITY_INVALID: 9008,
  TYPE_INVALID: 9020,
  TTL_INVALID: 9021,
  /** `proxied` on a type that cannot be proxied. */
  NOT_PROXIABLE: 9041,
  PRIORITY_REQUIRED: 9100,
  COMMENT_INVALID: 9150,
  TAGS_INVALID: 9151,
  SETTINGS_INVALID: 9152,
  ZONE_NAME_INVALID: 1099,
  /** A CNAME where other records exist at that name. */
  CNAME_CONFLICT: 81053,
  /** A record where a CNAME exists at that name. */
  CNAME_EXISTS: 81054,
  /** A record with the same name, type and content already exists. */
  IDENTICAL_RECORD: 81058,
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
