/**
 * @module KV values from D1 rows: an owner name's node and the zone's metadata (with the apex node).
 * Pure functions; the builder and the convergence checker share them.
 */
import { dnssecMeta, parseDnssecState } from '../dnssec/state.ts'
import { defaultNameServers } from '../zones/apex-ns.ts'
import type { RecordRow } from '../records/model.ts'
import type { NodeData, RRSetData, ZoneLayout, ZoneMeta } from '@edgedns/kv-layout'
import {
  AUTO_TTL_SECONDS,
  PROXIABLE_TYPES,
  toPresentation,
  type RecordType,
} from '@edgedns/records'

/** The columns of `dns_records` a KV value depends on. */
export type ValueRow = Pick<
  RecordRow,
  'name' | 'type' | 'content' | 'data' | 'priority' | 'ttl' | 'proxied'
>

/** The columns of `zones` the metadata depends on (snake_case, as raw SQL returns them). */
export interface ZoneDbRow {
  id: string
  name: string
  /** 1 when the zone's outgoing transfers are enabled (null: not configured). */
  outgoing_enabled?: number | null
  /** The zone's type: `secondary_expired` counts for a secondary zone only. */
  type?: string
  /**
   * A secondary zone that must not be answered (0/1; absent in older rows): not loaded yet (no
   * transfer committed since it became secondary), or past its SOA expire without a good check.
   */
  secondary_expired?: number
  change_seq: number
  serial: number
  name_servers: string
  vanity_name_servers: string
  soa_mname: string
  soa_rname: string
  soa_refresh: number
  soa_retry: number
  soa_expire: number
  soa_minimum: number
  soa_ttl: number
  ns_ttl: number
  proxy_ipv4: string
  /** JSON DnssecState, or null. */
  dnssec?: string | null
  proxy_ipv6: string
  status?: string
  /** Null until the zone is activated (docs/zone-ownership.md). */
  activated_on?: string | null
}

/**
 * Whether a zone is built and served: once it has been activated. A pending zone never was, and
 * neither was one an account move has fenced (status 'moving') before its activation.
 */
export function isServed(zone: Pick<ZoneDbRow, 'status' | 'activated_on'>): boolean {
  return zone.status !== 'pending' && zone.activated_on !== null
}

export const VALUE_COLUMNS = 'name, type, content, data, priority, ttl, proxied'

export const EMPTY_NODE: NodeData = { v: 1, sets: {} }

function presentation(row: ValueRow): string | null {
  try {
    return toPresentation({
      type: row.type as RecordType,
      content: row.content,
      data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
      priority: row.priority,
    })
  } catch (e) {
    // A row the API accepted but cannot be rendered must not wedge the pipeline: skip it loudly.
    console.error('zone builder: record cannot be rendered, skipped', row.name, row.type, e)
    return null
  }
}

/** RRsets of one owner name; TTL of a set = smallest record TTL (1 = automatic = 300 s). */
export function nodeFromRows(rows: ValueRow[]): NodeData {
  const sets: Record<string, RRSetData> = {}
  for (const row of rows) {
    const rdata = presentation(row)
    if (rdata === null) continue
    const ttl = row.ttl === 1 ? AUTO_TTL_SECONDS : row.ttl
    const set = (sets[row.type] ??= { ttl, rdata: [] })
    set.ttl = Math.min(set.ttl, ttl)
    if (!set.rdata.includes(rdata)) set.rdata.push(rdata)
    if (row.proxied === 1 && PROXIABLE_TYPES.has(row.type as RecordType)) set.proxied = true
  }
  return { v: 1, sets }
}

const fqdn = (name: string): string => (name.endsWith('.') ? name : `${name}.`)
const strings = (json: string): string[] => JSON.parse(json) as string[]

/**
 * Zone metadata. Name servers are the vanity set when one is configured, else those assigned. The
 * apex NS set is the zone's stored apex NS records when it has any (their smallest TTL, as every
 * set), else those name servers with `ns_ttl` (one rule with transfers and the export:
 * zones/apex-ns.ts).
 */
export function zoneMetaFrom(
  zone: ZoneDbRow,
  apexRows: ValueRow[],
  layout: ZoneLayout | null = null,
  subzones: string[] = []
): ZoneMeta {
  const ns = defaultNameServers(zone.vanity_name_servers, zone.name_servers)
  const apex = nodeFromRows(apexRows)
  const dnssec = dnssecMeta(parseDnssecState(zone.dnssec))
  if (!apex.sets.NS && ns.length > 0) apex.sets.NS = { ttl: zone.ns_ttl, rdata: ns.map(fqdn) }
  return {
    v: 1,
    id: zone.id,
    name: zone.name,
    serial: zone.serial,
    soa: {
      mname: zone.soa_mname,
      rname: zone.soa_rname,
      refresh: zone.soa_refresh,
      retry: zone.soa_retry,
      expire: zone.soa_expire,
      minimum: zone.soa_minimum,
      ttl: zone.soa_ttl,
    },
    ns,
    proxy: { ipv4: strings(zone.proxy_ipv4), ipv6: strings(zone.proxy_ipv6) },
    apex,
    ...(layout ? { layout: { ...layout } } : {}),
    ...(subzones.length > 0 ? { subzones } : {}),
    ...(dnssec ? { dnssec } : {}),
    // Not answered (SERVFAIL), as BIND answers for a secondary zone it has not loaded or that
    // expired; a zone that is no longer secondary answers with what it holds.
    ...(zone.secondary_expired && zone.type === 'secondary' ? { expired: true as const } : {}),
  }
}
