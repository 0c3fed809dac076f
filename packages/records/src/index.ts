/**
 * @module @edgedns/records: the record-type registry shared by the API, the zone-file parser,
 * the KV builder and the DoH encoder. Pure: no bindings, no I/O.
 */
export { normalizeContent, toPresentation, fromPresentation } from './content.ts'
export { ERROR_CODES, RecordError } from './errors.ts'
export {
  absolutize,
  fqdn,
  normalizeHostname,
  normalizeName,
  normalizeZoneName,
  ownerFromPresentation,
} from './names.ts'
export { PROXIABLE_TYPES, isProxiable } from './proxy.ts'
export { normalizeNewZoneName } from './zone-name.ts'
export { RECORD_TYPES, TYPE_CODES, isRecordType, type RecordType } from './record-type.ts'
export { REGISTRY, getTypeSpec } from './registry.ts'
export type {
  ContentSpec,
  DataSpec,
  NormalizedContent,
  RecordFields,
  StoredRecord,
  TypeExample,
  TypeSpec,
} from './spec.ts'
export { SVC_KEYS, formatSvcParams, parseSvcParams, type SvcParam } from './svcparams.ts'
export { AUTO_TTL_SECONDS, MAX_TTL, MIN_TTL, validateTtl } from './ttl.ts'
export { formatTxtStrings, parseTxtStrings, txtContentFromStrings, txtPresentation } from './txt.ts'
export { canonicalIPv6, isIPv4 } from './ip.ts'
export { NOT_WELL_FORMED, isWellFormedText } from './well-formed.ts'
