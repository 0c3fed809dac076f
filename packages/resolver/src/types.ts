/**
 * @module Resolver inputs and outputs: question, resource record, resolution.
 */
import type { RRSetData, ZoneMeta } from '@edgedns/kv-layout'
export type { LookupOptions, NodeData, ZoneLookup, ZoneMeta, ZoneView } from '@edgedns/kv-layout'

export interface Question {
  /** Any case, with or without trailing dot; matched case-insensitively. */
  name: string
  /** RR type code (1 = A, 255 = ANY …). */
  type: number
  /** 1 (IN) or 255 (ANY, treated as IN); other classes get the rcodes of `screenQuestion`. Default 1. */
  class?: number
  dnssecOk?: boolean
}

/**
 * One resource record. `name` is the owner in lowercase without trailing dot (the root is '');
 * `rdata` is RFC presentation text whose absolute names end with a dot, as stored in KV.
 */
export interface RR {
  name: string
  type: number
  ttl: number
  rdata: string
}

export type ResolverRcode = 'NOERROR' | 'NXDOMAIN' | 'REFUSED' | 'SERVFAIL' | 'FORMERR' | 'NOTIMP'

export interface Resolution {
  rcode: ResolverRcode
  /** Authoritative answer: set for data from a hosted zone, clear for referrals and REFUSED. */
  aa: boolean
  answer: RR[]
  authority: RR[]
  additional: RR[]
  /** Truncated: the resolver itself left records out (a referral's glue past its lookup bound). */
  tc?: boolean
  /** Only when the question had `dnssecOk`: what a signer needs beyond the records. */
  dnssec?: SigningHints
}

/**
 * Facts about an answer that its records alone do not tell a DNSSEC signer. Names are lowercase
 * without trailing dot.
 */
export interface SigningHints {
  /** The question's type (an NSEC question is answered with the NSEC a denial would carry). */
  qtype: number
  /** Every zone a lookup of this answer returned (a CNAME chain may cross zones). */
  zones: ZoneMeta[]
  /**
   * Answer RRsets synthesised from a wildcard: their owner, the wildcard (`*.<encloser>`) and the
   * types at its closest encloser as answered (an NSEC at the encloser lists them when nothing
   * else can sort between it and the name denied, `\000.<encloser>`).
   */
  wildcards: { owner: string; wildcard: string; encloserTypes: number[] }[]
  /**
   * A negative answer (NXDOMAIN or NODATA) at `name`: the types that exist there (as answered:
   * proxied names hold addresses, never a CNAME), or null when the name does not exist.
   */
  negative?: { name: string; zone: string; types: number[] | null }
  /** An RRSIG question: the sets at the name as answered, whose signatures are the answer. */
  covered?: RR[][]
  /** A referral: the cut and its DS set, if the parent holds one. */
  cut?: { name: string; zone: string; ds?: RRSetData }
}
