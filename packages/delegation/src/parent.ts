/**
 * @module Choosing the zone above a zone: the closest enclosing zone of the zone's parent name, as
 * a recursive resolver reports it when asked for that name's SOA (in the answer when the parent
 * name is a zone apex, in the authority section of a negative answer otherwise).
 */
import { lookupName, TYPE_CODES } from '@edgedns/dns-facts'
import { isAtOrBelow } from './names.ts'

/** A record as a recursive resolver's answer gives it (owner and type; the data is not needed here). */
export interface ResolverRecord {
  name: string
  type: number
  data: string
}

/** What a recursive resolver answered to one question. */
export interface ResolverAnswer {
  answer: ResolverRecord[]
  authority: ResolverRecord[]
}

/**
 * The apex of the closest enclosing zone of `asked`, from the answer to `asked SOA`: the deepest
 * SOA owner at or above `asked` in either section; null when there is none (the caller reports it).
 */
export function enclosingZone(asked: string, reply: ResolverAnswer): string | null {
  let best: string | null = null
  for (const rr of [...reply.answer, ...reply.authority]) {
    if (rr.type !== TYPE_CODES.SOA) continue
    const owner = lookupName(rr.name)
    if (!isAtOrBelow(asked, owner)) continue
    if (best === null || owner.length > best.length) best = owner
  }
  return best
}

/** The NS targets of `zone` in an answer to `zone NS` (lookup form, in the order given, no repeats). */
export function nameServersOf(zone: string, reply: ResolverAnswer): string[] {
  const own = lookupName(zone)
  const out: string[] = []
  for (const rr of reply.answer) {
    if (rr.type !== TYPE_CODES.NS || lookupName(rr.name) !== own) continue
    const target = lookupName(rr.data)
    if (target !== '' && !out.includes(target)) out.push(target)
  }
  return out
}
