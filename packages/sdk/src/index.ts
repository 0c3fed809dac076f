/**
 * @module @edgedns/sdk: typed client for the edgedns API (Cloudflare v4 compatible) and its
 * DNS-over-HTTPS endpoint. Uses only fetch and web APIs: Workers, browsers and Node 18+.
 */
export { EdgeDns } from './client.ts'
export { EdgeDnsError, type ErrorKind } from './errors.ts'
export type { ClientOptions, Fetch, Envelope } from './http.ts'
export type { BatchOptions, BatchProgress, ImportOptions, WithSeq } from './records.ts'
export { splitBatch, countChanges } from './chunking.ts'
export type { WaitOptions } from './propagation.ts'
export type { RetryOptions } from './retry.ts'
export type { TokenScope } from './tokens.ts'
export type { ActivationCheck, ZoneFilter } from './zones.ts'
export { ZONE_STILL_PENDING } from './zones.ts'
export { collect } from './paginate.ts'
export { CHANGE_SEQ_HEADER } from './api-types.generated.ts'
export {
  decodeMessage,
  encodeQuery,
  type Answer,
  type DnsMessage,
  type QueryOptions,
} from './doh/message.ts'
export type * from './types.ts'
