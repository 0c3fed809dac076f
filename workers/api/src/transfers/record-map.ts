/**
 * @module A transferred record (owner, TTL, type, presentation rdata) as a record of our model,
 * through the same parsing and validation as a zone-file import. The zone's SOA is not a record
 * (it lives in the zone's settings); types the records API does not hold (DNSSEC records of a
 * signed primary, among others) and records it refuses are skipped, and counted.
 */
import {
  fromPresentation,
  isRecordType,
  MAX_TTL,
  MIN_TTL,
  ownerFromPresentation,
  RecordError,
} from '@edgedns/records'
import type { MessageRR } from '@edgedns/dns-wire'
import { ApiError } from '../http/api-error.ts'
import { buildRecord } from '../records/input.ts'
import type { DnsRecord } from '../records/model.ts'

/**
 * The version of how a transferred record becomes ours (this module and the wire decoder's
 * presentation text before it), moved whenever records that were left out are kept: 2 since LOC,
 * SVCB and HTTPS records are read from their wire form (before, they were skipped); 3 since escapes
 * in owner names (`\065`) are decoded, as an import decodes them (before, such owners were skipped). A copy whose
 * report of what it lacks was made by an earlier version, and lacks something, is pulled whole at
 * its next check (held-copy.ts `mappedBefore`), so it gains what is kept now without an operator.
 */
export const RECORD_MAPPING = 3

export interface MapContext {
  zoneId: string
  zoneName: string
  now: string
  newId: () => string
}

/** TTL 1 means "automatic" in the API; other TTLs are held within the API's range. */
function ttlOf(ttl: number): number {
  return Math.min(MAX_TTL, Math.max(MIN_TTL, ttl))
}

function inZone(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`)
}

/** The record `rr` stands for, or null when it is not one we hold (see the module comment). */
export function mapTransferred(rr: MessageRR, ctx: MapContext): DnsRecord | null {
  const mapped = mapOrSkip(rr, ctx)
  return typeof mapped === 'string' ? null : mapped
}

/** The record `rr` stands for, or why it is left out (see the module comment). */
export function mapOrSkip(rr: MessageRR, ctx: MapContext): DnsRecord | string {
  let name: string
  try {
    // Escapes decoded as a zone-file import decodes them (an escaped dot refused by name).
    name = (
      rr.name.includes('\\') ? ownerFromPresentation(rr.name) : rr.name.toLowerCase()
    ).replace(/\.$/, '')
  } catch (e) {
    if (e instanceof RecordError) return e.message
    throw e
  }
  const type = rr.type.toUpperCase()
  if (type === 'SOA') return "the zone's SOA is its settings, not a record"
  if (!isRecordType(type)) return `the records API does not hold ${type} records`
  if (!inZone(name, ctx.zoneName)) return `${name} is outside the zone`
  try {
    const content = fromPresentation(type, rr.data, `${ctx.zoneName}.`)
    return buildRecord(
      { ...content, name, ttl: ttlOf(rr.ttl), proxied: false, comment: null, tags: [] },
      { zoneId: ctx.zoneId, zoneName: ctx.zoneName, now: ctx.now },
      ctx.newId()
    )
  } catch (e) {
    if (e instanceof RecordError || e instanceof ApiError) return e.message
    throw e
  }
}
