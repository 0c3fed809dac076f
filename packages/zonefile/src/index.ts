/** @module @edgedns/zonefile — BIND/RFC 1035 master-file parser and serializer (pure, no I/O). */
export { ZoneFileError, type Position } from './errors.ts'
export { parseZoneFile } from './parser.ts'
export type { ParseOptions, ZoneEntry } from './types.ts'
export { parseCfComment, formatCfComment, type CfComment } from './cf-comment.ts'
export { serializeZoneFile, type SerializeRecord, type SerializeZone } from './serialize.ts'
export { parseTtl } from './ttl.ts'
export { APEX_CNAME_MARK, uncommentApexCname } from './apex-cname.ts'
