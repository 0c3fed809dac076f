/**
 * @module Turns stored RRsets into records and picks sets by type code.
 */
import { typeFromName, typeName } from '@edgedns/dns-wire'
import type { NodeData, RRSetData } from '@edgedns/kv-layout'
import type { RR } from './types.ts'

export const T = { A: 1, NS: 2, CNAME: 5, SOA: 6, AAAA: 28, DS: 43, ANY: 255 } as const

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
  const token = rdata.trim().split(/\s+/).pop() ?? ''
  const lower = token.toLowerCase()
  return lower.endsWith('.') && !lower.endsWith('\\.') ? lower.slice(0, -1) : lower
}
