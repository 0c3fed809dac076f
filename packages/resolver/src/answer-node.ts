/**
 * @module What one existing node says for a question type: records, a CNAME to follow, a CNAME
 * to flatten (apex), or no data.
 */
import type { NodeData, ZoneMeta } from '@edgedns/kv-layout'
import { isProxiedCname, isProxiedName, proxiedAnswer } from './proxied.ts'
import { TYPE_CODES } from '@edgedns/dns-facts'
import { setOf, targetName, toRRs, typesOf } from './rrset.ts'
import type { RR } from './types.ts'

export type NodeAnswer =
  | { kind: 'hit'; rrs: RR[] }
  | { kind: 'cname'; rr: RR; target: string }
  | { kind: 'flatten'; target: string; ttl: number }
  | { kind: 'nodata' }

const NODATA = { kind: 'nodata' } as const
const isAddress = (t: number): boolean => t === TYPE_CODES.A || t === TYPE_CODES.AAAA

export interface NodeContext {
  zone: ZoneMeta
  node: NodeData
  /** Owner of the answer: the query name (also for wildcard synthesis). */
  owner: string
  apex: boolean
}

export function answerNode(ctx: NodeContext, qtype: number): NodeAnswer {
  const { zone, node, owner } = ctx
  if (qtype === TYPE_CODES.ANY) return answerAny(ctx)
  if (isProxiedName(node)) {
    if (isAddress(qtype)) return hitOrNodata(proxiedAnswer(zone, node, owner, qtype))
    // A proxied CNAME hides its target: every other type, CNAME included, is NODATA.
    if (isProxiedCname(node)) return NODATA
  }
  const set = setOf(node, qtype)
  if (set && set.rdata.length > 0) return { kind: 'hit', rrs: toRRs(owner, qtype, set) }
  const cname = setOf(node, TYPE_CODES.CNAME)
  const first = cname?.rdata[0]
  if (cname && first !== undefined && qtype !== TYPE_CODES.CNAME) {
    if (ctx.apex) {
      return isAddress(qtype)
        ? { kind: 'flatten', target: targetName(first), ttl: cname.ttl }
        : NODATA
    }
    const rr = { name: owner, type: TYPE_CODES.CNAME, ttl: cname.ttl, rdata: first }
    return { kind: 'cname', rr, target: targetName(first) }
  }
  return NODATA
}

/**
 * RFC 8482 §4.2: answer ANY with one RRset. At a proxied name that is the proxy A set (AAAA when
 * the zone has no IPv4 proxy); otherwise the set with the lowest type code. CNAMEs are not
 * followed for ANY. An empty node is NODATA.
 */
function answerAny(ctx: NodeContext): NodeAnswer {
  const { zone, node, owner } = ctx
  if (isProxiedName(node)) {
    const a = proxiedAnswer(zone, node, owner, TYPE_CODES.A)
    return hitOrNodata(a.length > 0 ? a : proxiedAnswer(zone, node, owner, TYPE_CODES.AAAA))
  }
  const first = typesOf(node)[0]
  if (first === undefined) return NODATA
  return { kind: 'hit', rrs: toRRs(owner, first, setOf(node, first)!) }
}

function hitOrNodata(rrs: RR[]): NodeAnswer {
  return rrs.length > 0 ? { kind: 'hit', rrs } : NODATA
}
