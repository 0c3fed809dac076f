/**
 * @module Asking a parent zone's name server for a delegation, and reading its answer. The query
 * is `<zone> NS` with recursion not desired (RD=0): an authoritative server of the parent answers
 * with a referral, the zone's NS RRset in the authority section (RFC 1034 §4.3.2), or with the
 * NS RRset in the answer when it also serves the zone itself.
 */
import { lookupName, RCODES, rcodeName, TYPE_CODES } from '@edgedns/dns-facts'
import { decodeMessage, DnsFormatError, encodeQuery, type Message } from '@edgedns/dns-wire'
import { isBelow, shown } from './names.ts'

/** The query for `zone`'s delegation: NS, RD=0, with `id`. */
export function delegationQuery(zone: string, id: number): Uint8Array {
  return encodeQuery(lookupName(zone) || '.', 'NS', { id, rd: false })
}

export type ParentAnswer =
  /** The name servers the zone is delegated to (a referral, or the NS RRset in an authoritative answer). */
  | { kind: 'delegated'; nameServers: string[] }
  /** The parent says the zone has no delegation (authoritative NXDOMAIN, or no NS at the name). */
  | { kind: 'not-delegated'; reason: string }
  /** A referral to a zone cut between the asked parent and the zone: ask that zone's servers next. */
  | { kind: 'closer'; zone: string; nameServers: string[] }
  /** An answer that says nothing usable (an error rcode, a lame or mismatched answer). */
  | { kind: 'unusable'; reason: string }

/** NS targets (lookup form, no repeats) of the NS records owned by `owner` in `records`. */
function targets(owner: string, records: Message['answer']): string[] {
  const out: string[] = []
  for (const rr of records) {
    if (rr.typeCode !== TYPE_CODES.NS || lookupName(rr.name) !== owner) continue
    const t = lookupName(rr.data)
    if (t !== '' && !out.includes(t)) out.push(t)
  }
  return out
}

/**
 * Reads a server's answer to `delegationQuery(zone, id)` sent to a server of `parent` (the
 * enclosing zone the caller believes it is asking). Never throws: a malformed message is
 * 'unusable'.
 */
export function readParentAnswer(
  zone: string,
  parent: string,
  id: number,
  bytes: Uint8Array
): ParentAnswer {
  const own = lookupName(zone)
  let m: Message
  try {
    m = decodeMessage(bytes)
  } catch (e) {
    if (e instanceof DnsFormatError) return { kind: 'unusable', reason: 'a malformed answer' }
    throw e
  }
  const q = m.question[0]
  if (
    !m.qr ||
    m.id !== id ||
    m.question.length !== 1 ||
    lookupName(q!.name) !== own ||
    q!.typeCode !== TYPE_CODES.NS
  )
    return { kind: 'unusable', reason: 'an answer to another question' }
  if (m.tc) return { kind: 'unusable', reason: 'a truncated answer' }
  if (m.rcode !== RCODES.NOERROR && m.rcode !== RCODES.NXDOMAIN)
    return { kind: 'unusable', reason: `rcode ${rcodeName(m.rcode)}` }

  // The server serves the zone itself (or there is no cut and it holds the name's NS RRset).
  const answered = targets(own, m.answer)
  if (answered.length > 0 && m.rcode === RCODES.NOERROR)
    return { kind: 'delegated', nameServers: answered }

  // A referral: NS records in the authority section, owned by the zone or by a cut above it.
  const referral = new Map<string, string[]>()
  for (const rr of m.authority) {
    if (rr.typeCode !== TYPE_CODES.NS) continue
    const owner = lookupName(rr.name)
    if (!referral.has(owner)) referral.set(owner, targets(owner, m.authority))
  }
  const atZone = referral.get(own)
  if (atZone && atZone.length > 0 && m.rcode === RCODES.NOERROR)
    return { kind: 'delegated', nameServers: atZone }
  const hasSoa = m.authority.some((rr) => rr.typeCode === TYPE_CODES.SOA)
  if (!m.aa && !hasSoa) {
    // The deepest cut strictly between the parent and the zone, if the server pointed at one.
    let closer: string | null = null
    for (const owner of referral.keys()) {
      if (
        isBelow(own, owner) &&
        isBelow(owner, parent) &&
        (closer === null || owner.length > closer.length)
      )
        closer = owner
    }
    if (closer !== null) return { kind: 'closer', zone: closer, nameServers: referral.get(closer)! }
    return {
      kind: 'unusable',
      reason: `an answer that is neither authoritative for ${shown(parent)} nor a referral for ${own} (a lame server)`,
    }
  }
  return {
    kind: 'not-delegated',
    reason:
      m.rcode === RCODES.NXDOMAIN
        ? `${own} does not exist in ${shown(parent)}`
        : `${shown(parent)} has no delegation for ${own}`,
  }
}
