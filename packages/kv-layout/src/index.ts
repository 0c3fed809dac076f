/**
 * @module The KV layout contract (version 1) shared by the zone builder and the DoH worker.
 */
export * from './types.ts'
export {
  zoneKey,
  nodeKey,
  bucketKey,
  bucketPrefix,
  nameHash,
  bucketOf,
  bucketOfHash,
  bucketCountFor,
  BUCKET_LADDER,
  NAMES_PER_BUCKET,
} from './keys.ts'
export {
  normalizeName,
  splitLabels,
  parentName,
  isInZone,
  zoneCandidates,
  ancestorsBetween,
} from './names.ts'
export {
  KvLayoutError,
  encodeNode,
  encodeZoneMeta,
  decodeNode,
  decodeZoneMeta,
  encodeBucket,
  decodeBucket,
  bucketNode,
} from './codec.ts'
export { TtlLru } from './lru.ts'
export {
  KvZoneView,
  nodeNamesFor,
  speculativeKeys,
  type KvBulkReader,
  type KvZoneViewOptions,
} from './kv-zone-view.ts'
