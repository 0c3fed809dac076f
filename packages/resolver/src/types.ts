/**
 * @module Resolver inputs and outputs: question, resource record, resolution.
 */
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
}
