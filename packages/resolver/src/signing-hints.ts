/**
 * @module Collects what a DNSSEC signer needs to know about an answer (`SigningHints`) while it
 * is resolved. Only built for questions with `dnssecOk`, so unsigned answers cost nothing.
 */
import type { NodeData, RRSetData, ZoneLookup, ZoneMeta } from '@edgedns/kv-layout'
import { apexNode } from './apex.ts'
import { isProxiedName } from './proxied.ts'
import { TYPE_CODES } from '@edgedns/dns-facts'
import { typesOf } from './rrset.ts'
import { answerNode, type NodeContext } from './answer-node.ts'
import type { RR, SigningHints } from './types.ts'

export function newHints(qtype: number): SigningHints {
  return { qtype, zones: [], wildcards: [] }
}

export function sawZone(hints: SigningHints | undefined, zone: ZoneMeta): void {
  if (hints && !hints.zones.includes(zone)) hints.zones.push(zone)
}

/**
 * The types a NODATA proof lists at a node, as the node is answered: a proxied name holds the
 * address types its zone's proxy addresses give, and a CNAME that was not answered (an apex
 * CNAME flattened, a proxied CNAME) is not listed, or a validator would expect it to be followed.
 */
export function answeredTypes(zone: ZoneMeta, node: NodeData): number[] {
  const types = new Set(typesOf(node))
  types.delete(TYPE_CODES.CNAME)
  if (isProxiedName(node)) {
    if (zone.proxy.ipv4.length > 0 || node.sets.A) types.add(TYPE_CODES.A)
    if (zone.proxy.ipv6.length > 0 || node.sets.AAAA) types.add(TYPE_CODES.AAAA)
  }
  return [...types].sort((a, b) => a - b)
}

export function negative(
  hints: SigningHints | undefined,
  zone: ZoneMeta,
  name: string,
  types: number[] | null
): void {
  if (hints) hints.negative = { name, zone: zone.name, types }
}

export function cut(
  hints: SigningHints | undefined,
  zone: ZoneMeta,
  name: string,
  ds: RRSetData | undefined
): void {
  if (hints) hints.cut = ds ? { name, zone: zone.name, ds } : { name, zone: zone.name }
}

export function wildcard(
  hints: SigningHints | undefined,
  found: ZoneLookup,
  owner: string,
  source: string | undefined
): void {
  if (!hints || !source) return
  const encloser = source.slice(2)
  const node = encloser === found.zone.name ? apexNode(found.zone) : found.nodes.get(encloser)
  const encloserTypes = node ? answeredTypes(found.zone, node) : []
  hints.wildcards.push({ owner, wildcard: source, encloserTypes })
}

/**
 * The sets at a node as answered (proxied addresses, no apex CNAME), one per type: what an RRSIG
 * question's signatures cover.
 */
export function setsAt(ctx: NodeContext): RR[][] {
  const types = answeredTypes(ctx.zone, ctx.node)
  if (!ctx.apex && ctx.node.sets.CNAME) types.push(TYPE_CODES.CNAME)
  const sets: RR[][] = []
  for (const type of types) {
    const res = answerNode(ctx, type)
    if (res.kind === 'hit') sets.push(res.rrs)
  }
  return sets
}
