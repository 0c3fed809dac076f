/**
 * @module The one error type of the API boundary: a user-facing fault with a Cloudflare code.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status'

export interface ErrorItem {
  code: number
  message: string
}

/** Thrown anywhere below a route; `onError` turns it into the Cloudflare v4 envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: number,
    message: string,
    readonly extra: {
      errorChain?: ErrorItem[]
      headers?: Record<string, string>
      pointer?: string
    } = {}
  ) {
    super(message)
    this.name = 'ApiError'
  }

  static badRequest(code: number, message: string): ApiError {
    return new ApiError(400, code, message)
  }
}

/** Error codes this API answers with; Cloudflare's where one is known (see docs/errors.md). */
export const Codes = {
  invalidJson: 9207,
  invalidUtf8: 9208,
  invalidRequest: 9000,
  validation: 1004,
  recordNotFound: 81044,
  invalidRecordId: 1002,
  zoneNotFound: 7003,
  noRoute: 7000,
  methodNotAllowed: 10405,
  unauthenticated: 10000,
  invalidToken: 9109,
  invalidHeaders: 6003,
  bodyTooLarge: 10413,
  rateLimited: 971,
  batchTooLarge: 81063,
  conflictRetry: 81064,
  zoneExists: 1061,
  zoneOverlapsOtherAccount: 1097,
  invalidZoneName: 1099,
  accountNotFound: 1003,
  tokenNotFound: 1001,
  internal: 10001,
  dnssecUnavailable: 10002,
  dnssecNotActive: 1005,
  dnssecRollover: 1006,
  dnssecKeyNotFound: 1007,
  /** DNSSEC: two keys of a zone would share a key tag, or a tag names more than one key. */
  dnssecKeyTag: 1008,
  /** The zone's D1 shard is not bound to this worker (a deployment fault). */
  shardUnavailable: 10003,
  /** The account is being moved to another D1 shard: writes are refused for a moment; retry. */
  accountMoving: 10004,
  /** An activation check found no proof of ownership yet: the zone stays pending (a message, not an error). */
  zoneStillPending: 10005,
  /** Every D1 shard is past its high-water mark: no shard may take a new account (add a shard or move accounts). */
  shardsFull: 10006,
  /** Local development (DEV_API_TOKEN set): the request is not addressed to a loopback host. */
  notLoopbackHost: 10010,
} as const
