/**
 * @module The zone-change feed shared by the builder (appends), the feed objects (keep and serve
 * the log) and DoH isolates (poll it): protocol types, and pure logic with no Cloudflare bindings.
 */
export * from './protocol.ts'
export { ZoneIndex, ZoneIndexFormatError, labelCount } from './zone-index.ts'
