/**
 * @module Authoritative resolution of one question against hosted zones: the longest hosted zone
 * enclosing the name answers, from the names it holds.
 */
import { parentName, type ZoneLookup, type ZoneView } from '@edgedns/kv-layout'
import { answerNode } from './answer-node.ts'
import { negativeSoa } from './apex.ts'
import { locate } from './locate.ts'
import { referral } from './referral.ts'
import { screenQuestion } from './screen.ts'
import {
  answeredTypes,
  cut,
  negative,
  newHints,
  sawZone,
  setsAt,
  wildcard,
} from './signing-hints.ts'
import { CLASSES, lookupName, TYPE_CODES } from '@edgedns/dns-facts'
import type { Question, RR, Resolution, ResolverRcode, SigningHints } from './types.ts'

/** CNAMEs followed per question; the next CNAME is still answered but not followed. */
export const MAX_CNAME_HOPS = 8
/** Nested apex flattening depth (apex CNAME → apex CNAME → …). */
const MAX_FLATTEN_DEPTH = 2

const empty = (rcode: ResolverRcode): Resolution => ({
  rcode,
  aa: false,
  answer: [],
  authority: [],
  additional: [],
})

export async function resolve(view: ZoneView, q: Question): Promise<Resolution> {
  return resolveAt(view, q, 0)
}

async function resolveAt(view: ZoneView, q: Question, depth: number): Promise<Resolution> {
  const qtype = q.type
  const screened = screenQuestion(qtype, q.class ?? CLASSES.IN)
  if (screened) return empty(screened)

  const answer: RR[] = []
  const hints = q.dnssecOk ? newHints(qtype) : undefined
  const done = (rcode: ResolverRcode, answer: RR[], authority: RR[]): Resolution =>
    finish(rcode, answer, authority, hints)
  const seen = new Set<string>()
  let name = lookupName(q.name)
  for (let hop = 0; ; hop++) {
    seen.add(name)
    const found = await lookupFor(view, name, qtype)
    // Outside hosted zones: the first name is REFUSED, a CNAME target is left to the client.
    if (!found) return hop === 0 ? empty('REFUSED') : done('NOERROR', answer, [])
    // An expired secondary zone has no authoritative data to give (RFC 1035 §4.3.5).
    if (found.zone.expired) return empty('SERVFAIL')
    sawZone(hints, found.zone)
    const loc = locate(found, name, qtype)
    if (loc.kind === 'delegation') {
      cut(hints, found.zone, loc.cut, found.nodes.get(loc.cut)?.sets.DS)
      const { tc, ...ref } = await referral(view, found.zone, loc.cut, loc.ns)
      return {
        rcode: 'NOERROR',
        aa: answer.length > 0,
        answer,
        ...ref,
        ...(tc ? { tc } : {}),
        ...(hints ? { dnssec: hints } : {}),
      }
    }
    if (loc.kind === 'nxdomain') {
      negative(hints, found.zone, name, null)
      return done('NXDOMAIN', answer, [negativeSoa(found.zone)])
    }

    const ctx = { zone: found.zone, node: loc.node, owner: name, apex: loc.apex }
    if (qtype === TYPE_CODES.RRSIG && hints) {
      // Signatures are made as answers are signed: an RRSIG question gets those of every set at
      // the name (and of its NSEC), made by the signer from these sets; no CNAME is followed.
      if (loc.wildcard) wildcard(hints, found, name, loc.source)
      hints.covered = setsAt(ctx)
      negative(hints, found.zone, name, answeredTypes(found.zone, loc.node))
      return done('NOERROR', answer, [negativeSoa(found.zone)])
    }
    const res = answerNode(ctx, qtype)
    if (res.kind === 'hit') {
      if (loc.wildcard) wildcard(hints, found, name, loc.source)
      return done('NOERROR', [...answer, ...res.rrs], [])
    }
    if (res.kind === 'nodata') {
      // A wildcard NODATA is denied at the query name itself (compact denial: the name "exists").
      negative(hints, found.zone, name, answeredTypes(found.zone, loc.node))
      return done('NOERROR', answer, [negativeSoa(found.zone)])
    }
    if (res.kind === 'flatten') {
      const rrs = depth < MAX_FLATTEN_DEPTH ? await flatten(view, name, qtype, res, depth) : []
      if (rrs.length === 0) {
        negative(hints, found.zone, name, answeredTypes(found.zone, loc.node))
        return done('NOERROR', answer, [negativeSoa(found.zone)])
      }
      return done('NOERROR', [...answer, ...rrs], [])
    }
    if (loc.wildcard) wildcard(hints, found, name, loc.source)
    answer.push(res.rr)
    // RFC 1034 §3.6.2: a loop is an error to signal; BIND answers SERVFAIL with the chain.
    if (seen.has(res.target)) return done('SERVFAIL', answer, [])
    if (hop >= MAX_CNAME_HOPS) return done('NOERROR', answer, [])
    name = res.target
  }
}

function finish(
  rcode: ResolverRcode,
  answer: RR[],
  authority: RR[],
  hints: SigningHints | undefined
): Resolution {
  const res: Resolution = { rcode, aa: true, answer, authority, additional: [] }
  if (hints) res.dnssec = hints
  return res
}

/**
 * The zone that answers for `name`. DS at the apex of a nested hosted zone is answered by the
 * parent zone when the parent has the cut (NS at that name), as RFC 4035 §3.1.4.1 requires.
 */
async function lookupFor(view: ZoneView, name: string, qtype: number): Promise<ZoneLookup | null> {
  const found = await view.lookup(name)
  if (!found || qtype !== TYPE_CODES.DS || found.zone.name !== name || name === '') return found
  const parent = await view.lookup(name, { within: parentName(name) })
  return parent?.nodes.get(name)?.sets.NS ? parent : found
}

/**
 * Apex CNAME flattening: resolve the target's A/AAAA (through hosted zones only) and answer them
 * at the apex with TTL min(CNAME TTL, address TTL). A target outside hosted zones gives NODATA.
 */
async function flatten(
  view: ZoneView,
  apex: string,
  qtype: number,
  res: { target: string; ttl: number },
  depth: number
): Promise<RR[]> {
  const inner = await resolveAt(view, { name: res.target, type: qtype }, depth + 1)
  return inner.answer
    .filter((rr) => rr.type === qtype)
    .map((rr) => ({ ...rr, name: apex, ttl: Math.min(rr.ttl, res.ttl) }))
}
