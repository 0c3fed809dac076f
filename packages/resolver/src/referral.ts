/**
 * @module Referral for a name at or below a zone cut: NS in authority, in-bailiwick glue.
 */
import { isInZone, type RRSetData, type ZoneMeta, type ZoneView } from '@edgedns/kv-layout'
import { apexNode } from './apex.ts'
import { T, setOf, targetName, toRRs } from './rrset.ts'
import type { RR } from './types.ts'

/** At most this many NS targets get glue lookups. */
export const MAX_GLUE_TARGETS = 13

export interface Referral {
  authority: RR[]
  additional: RR[]
}

/**
 * Glue is read only for NS targets inside the referring zone (below the cut, or siblings in the
 * same zone); stored A/AAAA sets are used as they are (the proxied flag does not apply to glue).
 */
export async function referral(
  view: ZoneView,
  zone: ZoneMeta,
  cut: string,
  ns: RRSetData
): Promise<Referral> {
  const authority = toRRs(cut, T.NS, ns)
  const targets = [...new Set(ns.rdata.map(targetName))]
    .filter((t) => isInZone(t, zone.name))
    .slice(0, MAX_GLUE_TARGETS)
  const glue = await Promise.all(targets.map((t) => glueFor(view, zone, t)))
  return { authority, additional: glue.flat() }
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
  for (const type of [T.A, T.AAAA]) {
    const set = setOf(node, type)
    if (set) out.push(...toRRs(target, type, set))
  }
  return out
}
