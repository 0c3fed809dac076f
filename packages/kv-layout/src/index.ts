/**
 * @module The KV layout contract (version 1) shared by the zone builder and the DoH worker.
 */
export * from './types.ts'
export { zoneKey, nodeKey } from './keys.ts'
export {
  normalizeName,
  splitLabels,
  parentName,
  isInZone,
  zoneCandidates,
  ancestorsBetween,
} from './names.ts'
export { KvLayoutError, encodeNode, encodeZoneMeta, decodeNode, decodeZoneMeta } from './codec.ts'
export { TtlLru } from './lru.ts'
export {
  KvZoneView,
  nodeNamesFor,
  type KvBulkReader,
  type KvZoneViewOptions,
} from './kv-zone-view.ts'
