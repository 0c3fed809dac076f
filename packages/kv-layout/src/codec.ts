/**
 * @module Stable JSON encoding and validating decoding of KV values (equal state → equal bytes).
 */
import { KV_LAYOUT_VERSION, type NodeData, type RRSetData, type ZoneMeta } from './types.ts'

/** A KV value that does not match layout version 1. */
export class KvLayoutError extends Error {
  override name = 'KvLayoutError'
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

function canonicalSet(set: RRSetData): RRSetData {
  const out: RRSetData = { ttl: set.ttl, rdata: [...set.rdata].sort(byCodeUnit) }
  if (set.proxied) out.proxied = true
  return out
}

function canonicalNode(node: NodeData): NodeData {
  const sets: Record<string, RRSetData> = {}
  for (const type of Object.keys(node.sets).sort(byCodeUnit)) {
    sets[type] = canonicalSet(node.sets[type] as RRSetData)
  }
  return { v: KV_LAYOUT_VERSION, sets }
}

/**
 * A node's compact encoding, used in buckets, heads and the builder's mirror: a JSON array of its
 * RRsets sorted by type, each `[type, ttl, [rdata…]]` with a fourth element `1` when proxied
 * (`[]` for an empty non-terminal). Canonical: equal state gives equal bytes.
 */
export function encodeNode(node: NodeData): string {
  const sets: unknown[] = []
  for (const type of Object.keys(node.sets).sort(byCodeUnit)) {
    const set = node.sets[type] as RRSetData
    const rdata = [...set.rdata].sort(byCodeUnit)
    sets.push(set.proxied ? [type, set.ttl, rdata, 1] : [type, set.ttl, rdata])
  }
  return JSON.stringify(sets)
}

export function encodeZoneMeta(meta: ZoneMeta): string {
  const { soa } = meta
  const canonical: ZoneMeta = {
    v: KV_LAYOUT_VERSION,
    id: meta.id,
    name: meta.name,
    serial: meta.serial,
    soa: {
      mname: soa.mname,
      rname: soa.rname,
      refresh: soa.refresh,
      retry: soa.retry,
      expire: soa.expire,
      minimum: soa.minimum,
      ttl: soa.ttl,
    },
    ns: [...meta.ns].sort(byCodeUnit),
    proxy: {
      ipv4: [...meta.proxy.ipv4].sort(byCodeUnit),
      ipv6: [...meta.proxy.ipv6].sort(byCodeUnit),
    },
    apex: canonicalNode(meta.apex),
  }
  if (meta.layout) {
    canonical.layout = { buckets: meta.layout.buckets }
    if (meta.layout.prev !== undefined) canonical.layout.prev = meta.layout.prev
  }
  if (meta.subzones && meta.subzones.length > 0)
    canonical.subzones = [...meta.subzones].sort(byCodeUnit)
  if (meta.dnssec) {
    canonical.dnssec = {
      keys: meta.dnssec.keys.map((k) => ({ tag: k.tag, publicKey: k.publicKey, sealed: k.sealed })),
    }
    if (meta.dnssec.until !== undefined) canonical.dnssec.until = meta.dnssec.until
  }
  if (meta.expired) canonical.expired = true
  return JSON.stringify(canonical)
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const isUint = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff
const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string')

function parse(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    throw new KvLayoutError('value is not JSON')
  }
}

function checkNode(value: unknown, what: string): NodeData {
  if (!isObject(value)) throw new KvLayoutError(`${what}: not an object`)
  if (value.v !== KV_LAYOUT_VERSION) throw new KvLayoutError(`${what}: unsupported version`)
  if (!isObject(value.sets)) throw new KvLayoutError(`${what}: sets missing`)
  for (const [type, set] of Object.entries(value.sets)) {
    if (!isObject(set) || !isUint(set.ttl) || !isStrings(set.rdata)) {
      throw new KvLayoutError(`${what}: bad ${type} set`)
    }
    if (set.proxied !== undefined && set.proxied !== true) {
      throw new KvLayoutError(`${what}: bad proxied flag on ${type}`)
    }
  }
  return value as unknown as NodeData
}

/** Decodes `encodeNode` output (a string or the parsed array), validating every set. */
export function decodeNode(value: unknown): NodeData {
  const sets = parse(value)
  if (!Array.isArray(sets)) throw new KvLayoutError('node: not an array of sets')
  const node: NodeData = { v: KV_LAYOUT_VERSION, sets: {} }
  for (const set of sets) {
    if (
      !Array.isArray(set) ||
      typeof set[0] !== 'string' ||
      !isUint(set[1]) ||
      !isStrings(set[2])
    ) {
      throw new KvLayoutError('node: bad set')
    }
    if (set.length > 4 || (set.length === 4 && set[3] !== 1))
      throw new KvLayoutError(`node: bad proxied flag on ${set[0]}`)
    node.sets[set[0]] =
      set.length === 4
        ? { ttl: set[1], rdata: set[2], proxied: true }
        : { ttl: set[1], rdata: set[2] }
  }
  return node
}

export function decodeZoneMeta(value: unknown): ZoneMeta {
  const m = parse(value)
  if (!isObject(m)) throw new KvLayoutError('zone: not an object')
  if (m.v !== KV_LAYOUT_VERSION) throw new KvLayoutError('zone: unsupported version')
  if (typeof m.id !== 'string' || typeof m.name !== 'string' || !isUint(m.serial)) {
    throw new KvLayoutError('zone: bad id, name or serial')
  }
  const soa = m.soa
  if (
    !isObject(soa) ||
    typeof soa.mname !== 'string' ||
    typeof soa.rname !== 'string' ||
    !['refresh', 'retry', 'expire', 'minimum', 'ttl'].every((k) => isUint(soa[k]))
  ) {
    throw new KvLayoutError('zone: bad soa')
  }
  if (!isStrings(m.ns)) throw new KvLayoutError('zone: bad ns')
  if (!isObject(m.proxy) || !isStrings(m.proxy.ipv4) || !isStrings(m.proxy.ipv6)) {
    throw new KvLayoutError('zone: bad proxy')
  }
  checkNode(m.apex, 'zone apex')
  if (
    m.layout !== undefined &&
    (!isObject(m.layout) ||
      !isBucketCount(m.layout.buckets) ||
      (m.layout.prev !== undefined && !isBucketCount(m.layout.prev)))
  ) {
    throw new KvLayoutError('zone: bad layout')
  }
  if (m.subzones !== undefined && !isStrings(m.subzones))
    throw new KvLayoutError('zone: bad subzones')
  if (m.dnssec !== undefined && !isDnssec(m.dnssec)) throw new KvLayoutError('zone: bad dnssec')
  if (m.expired !== undefined && m.expired !== true) throw new KvLayoutError('zone: bad expired')
  return m as unknown as ZoneMeta
}

const isDnssec = (v: unknown): boolean =>
  isObject(v) &&
  Array.isArray(v.keys) &&
  v.keys.every(
    (k) =>
      isObject(k) &&
      isUint(k.tag) &&
      typeof k.publicKey === 'string' &&
      typeof k.sealed === 'string'
  ) &&
  (v.until === undefined || isUint(v.until))

const isBucketCount = (v: unknown): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 1 << 20 && (v & (v - 1)) === 0
