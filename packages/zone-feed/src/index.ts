/**
 * @module The zone-change feed shared by the builder (appends), the feed objects (keep and serve
 * the log) and DoH isolates (poll it): protocol types, and pure logic with no Cloudflare bindings.
 */
export * from './protocol.ts'
export { ZoneIndex, ZoneIndexFormatError, labelCount } from './zone-index.ts'
export { FeedLog } from './feed-log.ts'
export type { FeedLogOptions } from './feed-log-options.ts'
export type {
  CompiledIndex,
  DigestReply,
  ServedZone,
  TailReply,
  TailRequest,
} from './feed-replies.ts'
export { FeedInputError } from './feed-append-check.ts'
export { MAX_OFFER_HEADS, WatchOffers } from './watch-offers.ts'
export {
  type FeedMeta,
  type FeedStore,
  type IndexState,
  type StoredEntry,
  type ZoneRow,
} from './feed-store.ts'
export { ZoneSetDigest } from './zone-set-digest.ts'
export { MemoryFeedStore } from './memory-store.ts'
export { FeedRing, type FeedRingOptions, type FeedSource } from './feed-ring.ts'
export {
  FeedClient,
  SHARED_WAIT_MS,
  settledWithin,
  type FeedChange,
  type FeedClientOptions,
  type FeedClientStats,
  type KeepAlive,
} from './feed-client.ts'
export { released } from './released.ts'
