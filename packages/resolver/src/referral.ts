/**
 * @module Referral for a name at or below a zone cut: NS in authority, in-bailiwick glue.
 */
import { isInZone, type RRSetData, type ZoneMeta, type ZoneView } from '@edgedns/kv-layout'
import { apexNode } from './apex.ts'
import { TYPE_CODES } from '@edgedns/dns-facts'
import { setOf, targetName, toRRs } from './rrset.ts'
import type { RR } from './types.ts'

/**
 * NS targets whose glue is looked up (one KV read each, in parallel). Far above any real NS set;
 * it keeps a pathological one inside the platform's per-request KV operation limit. Past it the
 * referral is marked truncated, as RFC 9471 allows when glue cannot all be given.
 */
export const MAX_GLUE_LOOKUPS = 500

export interface Referral {
  authority: RR[]
  additional: RR[]
  /** Set when some in-zone glue was left out (more targets than MAX_GLUE_LOOKUPS). */
  tc: boolean
}

/**
 * RFC 9471: every in-domain glue record (NS targets below the cut) and sibling glue (targets
 * elsewhere in the referring zone), for all NS targets; the encoder sets TC if the message cannot
 * hold them. Stored A/AAAA sets are used as they are (the proxied flag does not apply to glue).
 */
export async function referral(
  view: ZoneView,
  zone: ZoneMeta,
  cut: string,
  ns: RRSetData
): Promise<Referral> {
  const authority = toRRs(cut, TYPE_CODES.NS, ns)
  const inZone = [...new Set(ns.rdata.map(targetName))].filter((t) => isInZone(t, zone.name))
  const targets = inZone.slice(0, MAX_GLUE_LOOKUPS)
  const glue = await Promise.all(targets.map((t) => glueFor(view, zone, t)))
  return { authority, additional: glue.flat(), tc: targets.length < inZone.length }
}

async function glueFor(view: ZoneView, zone: ZoneMeta, target: string): Promise<RR[]> {
  let node = target === zone.name ? apexNode(zone) : undefined
  if (!node) {
    const found = await view.lookup(target, { within: zone.name })
    if (!found || found.zone.name !== zone.name) return []
    node = found.nodes.get(target)
  }
  if (!node) return []
  const out: RR[] = []
  for (const type of [TYPE_CODES.A, TYPE_CODES.AAAA]) {
    const set = setOf(node, type)
    if (set) out.push(...toRRs(target, type, set))
  }
  return out
}
