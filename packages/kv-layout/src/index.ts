/**
 * @module The KV layout contract shared by the zone builder and the DoH worker.
 */
export * from './types.ts'
export {
  zoneKey,
  bucketKey,
  indexKey,
  type BucketKeyVersion,
  bucketPrefix,
  nameHash,
  avalanche32,
  bucketOf,
  bucketOfHash,
  bucketCountFor,
  BUCKET_LADDER,
  NAMES_PER_BUCKET,
} from './keys.ts'
export { splitLabels, parentName, isInZone, zoneCandidates, ancestorsBetween } from './names.ts'
export { KvLayoutError, encodeNode, encodeZoneMeta, decodeNode, decodeZoneMeta } from './codec.ts'
export {
  BUCKET_HEADER,
  EMPTY_BUCKET,
  encodeBucketText,
  findInBucket,
  bucketEntries,
  isBucketText,
  relativeName,
} from './bucket-text.ts'
export {
  HEAD_SLOTS,
  HEAD_CHANGE_HISTORY,
  headKey,
  headVersionKey,
  bucketVersion,
  headKeys,
  headSlot,
  encodeHead,
  decodeHead,
  headCounter,
  headZoneId,
  isHeadOf,
  headFromMeta,
  encodeOverlay,
  decodeOverlay,
  overlayKey,
  overlayPrefix,
  OVERLAY_INLINE_MAX,
  type HeadInput,
} from './head.ts'
export {
  versionsTableKey,
  encodeBucketVersions,
  decodeBucketVersions,
  withVersionsTable,
} from './head-versions.ts'
export { REDACTED, holdsZoneMeta, publicValueText } from './public-view.ts'
export { zoneImage, withEmptyNonTerminals, type ZoneImageOptions } from './image.ts'
export { KvZoneView } from './kv-zone-view.ts'
export { IMMUTABLE_CACHE_TTL_S, type KvBulkReader } from './kv-reads.ts'
export { nodeNamesFor, speculativeKeys } from './zone-entry.ts'
export type { KvZoneViewOptions, ZoneViewStats } from './zone-view-options.ts'
