/**
 * @module Turns stored RRsets into records and picks sets by type code.
 */
import { lookupName, typeFromName, typeName } from '@edgedns/dns-facts'
import type { NodeData, RRSetData } from '@edgedns/kv-layout'
import type { RR } from './types.ts'

export function toRRs(owner: string, type: number, set: RRSetData): RR[] {
  return set.rdata.map((rdata) => ({ name: owner, type, ttl: set.ttl, rdata }))
}

export function setOf(node: NodeData, type: number): RRSetData | undefined {
  return node.sets[typeName(type)]
}

/** Type codes present at a node, ascending. */
export function typesOf(node: NodeData): number[] {
  const codes: number[] = []
  for (const [name, set] of Object.entries(node.sets)) {
    const code = typeFromName(name)
    if (code !== undefined && set.rdata.length > 0) codes.push(code)
  }
  return codes.sort((a, b) => a - b)
}

/** First rdata token as a lowercase name without trailing dot (CNAME/NS targets). */
export function targetName(rdata: string): string {
  return lookupName(rdata.trim().split(/\s+/).pop() ?? '')
}
