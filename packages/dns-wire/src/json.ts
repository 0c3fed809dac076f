/**
 * @module The DNS JSON API response (Google/Cloudflare `application/dns-json` schema).
 */
import { fqdn } from '@edgedns/dns-facts'
import { rcodeValue, type RcodeName } from './types.ts'

export interface JsonRR {
  name: string
  type: number
  TTL: number
  data: string
}

export interface JsonResponse {
  Status: number
  TC: boolean
  RD: boolean
  RA: boolean
  AD: boolean
  CD: boolean
  Question: { name: string; type: number }[]
  Answer?: JsonRR[]
  Authority?: JsonRR[]
  Additional?: JsonRR[]
}

interface RRLike {
  name: string
  type: number
  ttl: number
  rdata: string
}

export interface JsonResultLike {
  rcode: RcodeName | number
  tc?: boolean
  answer: RRLike[]
  authority: RRLike[]
  additional: RRLike[]
}

const section = (rrs: RRLike[]): JsonRR[] =>
  rrs.map((rr) => ({ name: fqdn(rr.name), type: rr.type, TTL: rr.ttl, data: rr.rdata }))

/**
 * JSON body for a question and its result. RA is false (authoritative only) and AD false (no
 * validation); RD echoes the request (default true, as JSON clients expect); names get a
 * trailing dot; empty sections are omitted.
 */
export function toJsonResponse(
  question: { name: string; type: number; rd?: boolean; cd?: boolean },
  result: JsonResultLike
): JsonResponse {
  const out: JsonResponse = {
    Status: rcodeValue(result.rcode),
    TC: result.tc ?? false,
    RD: question.rd ?? true,
    RA: false,
    AD: false,
    CD: question.cd ?? false,
    Question: [{ name: fqdn(question.name), type: question.type }],
  }
  if (result.answer.length > 0) out.Answer = section(result.answer)
  if (result.authority.length > 0) out.Authority = section(result.authority)
  if (result.additional.length > 0) out.Additional = section(result.additional)
  return out
}
