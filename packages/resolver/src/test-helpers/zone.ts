/**
 * @module Test helper: zone-file lines (`www 300 IN A 192.0.2.1`) → an in-memory ZoneView.
 *
 * One RR per line: `<owner> <ttl> IN <TYPE> <rdata…>`. Owners and the names inside CNAME, NS,
 * PTR, DNAME, MX and SRV rdata are relative to the origin unless they end with a dot; `@` is the
 * apex. A trailing `; proxied` marks the RR's set as proxied. An apex SOA line sets the zone's
 * SOA (else a default one). Empty non-terminals are added by kv-layout's `withEmptyNonTerminals`,
 * the function `zoneImage` (and so every KV fixture) uses.
 */
import { lookupName } from '@edgedns/dns-facts'
import {
  isInZone,
  nodeNamesFor,
  zoneCandidates,
  type LookupOptions,
  type NodeData,
  type ZoneLookup,
  type ZoneMeta,
  type ZoneView,
  withEmptyNonTerminals,
} from '@edgedns/kv-layout'

export interface TestZone {
  meta: ZoneMeta
  nodes: Map<string, NodeData>
}

export interface ZoneOptions {
  proxy?: { ipv4: string[]; ipv6: string[] }
  ns?: string[]
}

const TEST_PROXY = { ipv4: ['203.0.113.10', '203.0.113.11'], ipv6: ['2001:db8:cf::10'] }

const NAME_AT: Record<string, number> = { CNAME: 0, NS: 0, PTR: 0, DNAME: 0, MX: 1, SRV: 3 }

function qualify(name: string, origin: string): string {
  if (name === '@') return `${origin}.`
  if (name.endsWith('.')) return name
  return `${name}.${origin}.`
}

export function parseZone(origin: string, text: string, options: ZoneOptions = {}): TestZone {
  const zone = lookupName(origin)
  const meta: ZoneMeta = {
    v: 1,
    id: 'f'.repeat(32),
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
    ns: options.ns ?? [],
    proxy: options.proxy ?? TEST_PROXY,
    apex: { v: 1, sets: {} },
  }
  const nodes = new Map<string, NodeData>()
  for (const raw of text.split('\n')) {
    const [body = '', comment = ''] = raw.split(/;(.*)/s)
    const fields = body.trim().split(/\s+/)
    if (fields.length < 4 || fields[0] === '') continue
    const [ownerText = '', ttlText = '', klass = '', typeText = '', ...rest] = fields
    if (klass.toUpperCase() !== 'IN') throw new Error(`bad line: ${raw}`)
    const owner = lookupName(qualify(ownerText, zone))
    const type = typeText.toUpperCase()
    const ttl = Number(ttlText)
    const at = NAME_AT[type]
    if (at !== undefined && rest[at] !== undefined) rest[at] = qualify(rest[at], zone)
    if (type === 'SOA' && owner === zone) {
      const [mname = '', rname = '', serial, refresh, retry, expire, minimum] = rest
      meta.serial = Number(serial)
      meta.soa = {
        mname: lookupName(qualify(mname, zone)),
        rname: lookupName(qualify(rname, zone)),
        refresh: Number(refresh),
        retry: Number(retry),
        expire: Number(expire),
        minimum: Number(minimum),
        ttl,
      }
      continue
    }
    const node = owner === zone ? meta.apex : nodeAt(nodes, owner)
    const set = (node.sets[type] ??= { ttl, rdata: [] })
    set.rdata.push(rest.join(' '))
    if (comment.trim() === 'proxied') set.proxied = true
  }
  return { meta, nodes: withEmptyNonTerminals(zone, nodes) }
}

function nodeAt(nodes: Map<string, NodeData>, name: string): NodeData {
  let node = nodes.get(name)
  if (!node) nodes.set(name, (node = { v: 1, sets: {} }))
  return node
}

/** An in-memory ZoneView with the same lookup contract as KvZoneView; counts lookups. */
export class MemoryView implements ZoneView {
  readonly zones = new Map<string, TestZone>()
  lookups = 0

  constructor(zones: TestZone[]) {
    for (const z of zones) this.zones.set(z.meta.name, z)
  }

  async lookup(qname: string, options: LookupOptions = {}): Promise<ZoneLookup | null> {
    this.lookups++
    const name = lookupName(qname)
    const within = options.within === undefined ? undefined : lookupName(options.within)
    for (const candidate of zoneCandidates(name)) {
      if (within !== undefined && !isInZone(within, candidate)) continue
      const z = this.zones.get(candidate)
      if (!z) continue
      const nodes = new Map<string, NodeData>()
      for (const n of nodeNamesFor(name, candidate)) {
        const node = z.nodes.get(n)
        if (node) nodes.set(n, node)
      }
      return { zone: z.meta, nodes }
    }
    return null
  }
}

/** `zones({ 'example.com': text, … })` → a MemoryView over all of them. */
export function zones(texts: Record<string, string>, options: ZoneOptions = {}): MemoryView {
  return new MemoryView(Object.entries(texts).map(([o, t]) => parseZone(o, t, options)))
}
