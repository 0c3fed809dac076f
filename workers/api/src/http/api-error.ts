/**
 * @module The one error type of the API boundary: a user-facing fault with a Cloudflare code.
 */
import { ERROR_CODES } from '@edgedns/records'
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

/**
 * Every error code this API answers with, by name: throw sites use these names, never a bare number.
 * Cloudflare's numbers where one is known. The record-level codes come from `@edgedns/records`
 * (which throws them without knowing this worker); the per-type content codes are each type's
 * `errorCode` there. docs/errors.md lists each code, checked against this table by a test.
 */
export const Codes = {
  invalidRequest: ERROR_CODES.NAME_INVALID,
  priorityInvalid: ERROR_CODES.PRIORITY_INVALID,
  priorityRequired: ERROR_CODES.PRIORITY_REQUIRED,
  typeInvalid: ERROR_CODES.TYPE_INVALID,
  ttlInvalid: ERROR_CODES.TTL_INVALID,
  notProxiable: ERROR_CODES.NOT_PROXIABLE,
  commentInvalid: ERROR_CODES.COMMENT_INVALID,
  tagsInvalid: ERROR_CODES.TAGS_INVALID,
  settingsInvalid: ERROR_CODES.SETTINGS_INVALID,
  invalidZoneName: ERROR_CODES.ZONE_NAME_INVALID,
  cnameConflict: ERROR_CODES.CNAME_CONFLICT,
  cnameExists: ERROR_CODES.CNAME_EXISTS,
  identicalRecord: ERROR_CODES.IDENTICAL_RECORD,
  invalidJson: 9207,
  invalidUtf8: 9208,
  validation: 1004,
  recordNotFound: 81044,
  invalidRecordId: 1002,
  zoneNotFound: 7003,
  noRoute: 7000,
  methodNotAllowed: 10405,
  unauthenticated: 10000,
  invalidToken: 9109,
  invalidHeaders: 6003,
  /** Chained under `invalidHeaders`: the `Authorization` header is not `Bearer <token>` (scheme in any case). */
  authorizationFormat: 6111,
  bodyTooLarge: 10413,
  /** The request body has a content coding other than identity (`Content-Encoding: gzip`). */
  unsupportedContentEncoding: 10415,
  rateLimited: 971,
  batchTooLarge: 81063,
  conflictRetry: 81064,
  zoneExists: 1061,
  zoneOverlapsOtherAccount: 1097,
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
  /** Import: not multipart/form-data, or no `file` field (Cloudflare's "Failed to parse form data"). */
  importFormData: 81068,
  /** Import: zone-file syntax error; the message names line and column. */
  importSyntax: 81069,
  /** Import: a record outside the zone, of an unsupported type, or a misplaced SOA. */
  importUnsupported: 81070,
  /** Import, a message rather than an error: a line was skipped (SOA, own NS, repeat, identical record). */
  importSkipped: 81071,
  /** Zone transfers: no TSIG key with that id in the account. */
  tsigNotFound: 10200,
  /** Zone transfers: no peer with that id in the account. */
  peerNotFound: 10201,
  /** Zone transfers: no ACL with that id in the account. */
  aclNotFound: 10202,
  /** Zone transfers: the zone has no incoming / outgoing configuration. */
  transferSettingsNotFound: 10203,
  /** Zone transfers: the zone already has an incoming / outgoing configuration (POST twice). */
  transferSettingsExist: 10204,
  /** Zone transfers: incoming asked of a zone that is not `secondary`, or outgoing of one that is. */
  transferZoneType: 10205,
  /** Zone transfers: a TSIG key a peer uses, or a peer a zone's configuration names, cannot be deleted. */
  transferInUse: 10206,
  /** Zone transfers: the account already has a TSIG key of that name. */
  tsigNameTaken: 10207,
  /** Zone transfers: `tsig_id` or a `peers` entry names no TSIG key / peer of the account. */
  transferReference: 10208,
  /** Records of a `secondary` zone come from its primary: the Records API refuses writes. */
  secondaryReadOnly: 10209,
  /** Catalog zones: the account has no catalog (`GET`, `DELETE` of `/secondary_dns/catalog`). */
  catalogNotFound: 10210,
  /** Catalog zones: the name is a zone served here, or another account's catalog. */
  catalogNameTaken: 10211,
  /** force_axfr: no primary of the zone could be transferred from (the message says why). */
  transferFailed: 10031,
} as const
