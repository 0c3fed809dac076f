/**
 * @module Finds what a name means inside one zone: a node, a wildcard, a delegation or nothing.
 */
import { ancestorsBetween, type NodeData, type RRSetData } from '@edgedns/kv-layout'
import type { ZoneLookup } from '@edgedns/kv-layout'
import { TYPE_CODES } from '@edgedns/dns-facts'
import { apexNode } from './apex.ts'

export type Located =
  | {
      kind: 'node'
      node: NodeData
      owner: string
      apex: boolean
      wildcard: boolean
      source?: string
    }
  | { kind: 'delegation'; cut: string; ns: RRSetData }
  | { kind: 'nxdomain' }

/**
 * Walks from the apex down to `name` (Knot/CoreDNS style). The first existing non-apex node with
 * NS is a zone cut: everything at or below it is a referral, except DS at the cut itself, which
 * the parent answers. When the walk falls off the tree, the deepest existing node is the closest
 * encloser and only `*.<closest encloser>` may synthesise an answer (RFC 4592). Names with no
 * records but with descendants exist as empty nodes (the builder stores them), so they give
 * NODATA and block wildcards.
 */
export function locate({ zone, nodes }: ZoneLookup, name: string, qtype: number): Located {
  if (name === zone.name) {
    return { kind: 'node', node: apexNode(zone), owner: name, apex: true, wildcard: false }
  }
  const path = [...ancestorsBetween(name, zone.name).reverse(), name]
  let encloser = zone.name
  for (const step of path) {
    const node = nodes.get(step)
    if (!node) break
    const ns = node.sets.NS
    if (ns && !(step === name && qtype === TYPE_CODES.DS))
      return { kind: 'delegation', cut: step, ns }
    if (step === name) return { kind: 'node', node, owner: name, apex: false, wildcard: false }
    encloser = step
  }
  const wildcard = nodes.get(`*.${encloser}`)
  if (wildcard)
    return {
      kind: 'node',
      node: wildcard,
      owner: name,
      apex: false,
      wildcard: true,
      source: `*.${encloser}`,
    }
  return { kind: 'nxdomain' }
}
