/**
 * @module Validating DNS wire codec for the DoH worker: query decoding, response encoding, JSON.
 */
export * from './types.ts'
export { DnsFormatError, RdataError, type PartialHeader } from './errors.ts'
export { decodeQuery, peekHeader, type Query, type QueryQuestion, type Edns } from './query.ts'
export {
  encodeResponse,
  replyTo,
  formErrReply,
  OUR_UDP_PAYLOAD,
  type ResponseInit,
  type ResponseRR,
  type ResolutionLike,
} from './response.ts'
export { encodeRdata, SUPPORTED_TYPES } from './rdata/index.ts'
export { toJsonResponse, type JsonResponse, type JsonRR } from './json.ts'
