/**
 * @module Test helper: a zone in zone-file syntax → the KV image a full build leaves behind
 * (`zoneImage` of @edgedns/kv-layout: zone key, every bucket, head 1; ENTs added).
 *
 * Relative names inside CNAME, NS, PTR, DNAME, MX and SRV rdata are made absolute; an apex SOA
 * sets the zone's SOA (else a default one); `; cf_tags=cf-proxied:true` marks the set proxied.
 */
import { lookupName } from '../../../packages/dns-facts/src/index.ts'
import {
  zoneImage,
  type NodeData,
  type ZoneDnssec,
  type ZoneMeta,
} from '../../../packages/kv-layout/src/index.ts'
import { parseCfComment, parseZoneFile } from '../../../packages/zonefile/src/index.ts'
import { env } from 'cloudflare:workers'

const TEST_PROXY = { ipv4: ['203.0.113.10', '203.0.113.11'], ipv6: ['2001:db8:cf::10'] }

export interface SeedOptions {
  proxy?: { ipv4: string[]; ipv6: string[] }
  ns?: string[]
  /** Bucket count (default: what the builder would pick). */
  buckets?: number
  /** Signing keys (ZoneMeta.dnssec): the zone is signed. */
  dnssec?: ZoneDnssec
}

/** Index of the domain-name field in the rdata of types whose names may be relative. */
const NAME_AT: Record<string, number> = { CNAME: 0, NS: 0, PTR: 0, DNAME: 0, MX: 1, SRV: 3 }

function absolute(name: string, origin: string): string {
  if (name === '@') return `${origin}.`
  if (name.endsWith('.')) return name
  return `${name}.${origin}.`
}

function nodeAt(nodes: Map<string, NodeData>, name: string): NodeData {
  let node = nodes.get(name)
  if (!node) nodes.set(name, (node = { v: 1, sets: {} }))
  return node
}

/** The KV entries (key → value) of one zone. */
export function zoneEntries(
  origin: string,
  text: string,
  options: SeedOptions = {}
): Map<string, string> {
  const zone = lookupName(origin)
  const meta: ZoneMeta = {
    v: 1,
    id: 'd'.repeat(32),
    name: zone,
    serial: 1,
    soa: {
      mname: `ns1.${zone}`,
      rname: `hostmaster.${zone}`,
      refresh: 7200,
      retry: 3600,
      expire: 1209600,
      minimum: 300,
      ttl: 3600,
    },
    ns: options.ns ?? [`ns1.${zone}`, `ns2.${zone}`],
    proxy: options.proxy ?? TEST_PROXY,
    apex: { v: 1, sets: {} },
    ...(options.dnssec ? { dnssec: options.dnssec } : {}),
  }
  const nodes = new Map<string, NodeData>()
  for (const entry of parseZoneFile(text, { origin: zone, defaultTtl: 300 })) {
    const fields = entry.rdata.split(' ')
    const at = NAME_AT[entry.type]
    if (at !== undefined && fields[at] !== undefined)
      fields[at] = absolute(fields[at], entry.origin)
    if (entry.type === 'SOA' && entry.name === zone) {
      const [mname = '', rname = '', serial, refresh, retry, expire, minimum] = fields
      meta.serial = Number(serial)
      meta.soa = {
        mname: lookupName(absolute(mname, zone)),
        rname: lookupName(absolute(rname, zone)),
        refresh: Number(refresh),
        retry: Number(retry),
        expire: Number(expire),
        minimum: Number(minimum),
        ttl: entry.ttl,
      }
      continue
    }
    const node = entry.name === zone ? meta.apex : nodeAt(nodes, entry.name)
    const set = (node.sets[entry.type] ??= { ttl: entry.ttl, rdata: [] })
    set.rdata.push(fields.join(' '))
    if (parseCfComment(entry.comment ?? '').proxied) set.proxied = true
  }
  return zoneImage(meta, nodes, options.buckets === undefined ? {} : { buckets: options.buckets })
}

/** Writes a zone into the worker's KV namespace. */
export async function seedZone(
  origin: string,
  text: string,
  options: SeedOptions = {}
): Promise<void> {
  const entries = zoneEntries(origin, text, options)
  await Promise.all([...entries].map(([key, value]) => env.ZONES_KV.put(key, value)))
}

/** Writes raw KV values (for corrupted-data tests). */
export async function seedRaw(values: Record<string, string>): Promise<void> {
  await Promise.all(Object.entries(values).map(([key, value]) => env.ZONES_KV.put(key, value)))
}
