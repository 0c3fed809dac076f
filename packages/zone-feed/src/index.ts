/**
 * @module The zone-change feed shared by the builder (appends), the feed objects (keep and serve
 * the log) and DoH isolates (poll it): protocol types, and pure logic with no Cloudflare bindings.
 */
export * from './protocol.ts'
export { ZoneIndex, ZoneIndexFormatError, labelCount } from './zone-index.ts'
export {
  FeedLog,
  FeedInputError,
  ZoneSetDigest,
  type CompiledIndex,
  type DigestReply,
  type FeedLogOptions,
  type FeedMeta,
  type FeedStore,
  type IndexState,
  type ServedZone,
  type StoredEntry,
  type TailReply,
  type TailRequest,
  type ZoneRow,
} from './feed-log.ts'
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
