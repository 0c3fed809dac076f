/**
 * @module Bounds on what one token may hold, and on its validity window. A token's policies are
 * stored as JSON in its row and again in the audit entry of its create and delete; D1 refuses a
 * value over 2 MB (SQLITE_TOOBIG), so an unbounded token could be accepted and then fail, or fail
 * as a 500. Cloudflare documents no such bounds; these leave every token row and audit entry far
 * below D1's, and are refused with a 400 (code 1004) naming the bound, before anything is written.
 */
import { ApiError, Codes } from '../http/api-error.ts'

/** Policies in one token. */
export const MAX_POLICIES = 50
/** Permission groups in one policy (there are six; repeats count). */
export const MAX_POLICY_GROUPS = 20
/** Resource keys in one policy, both levels of the nested form counted. */
const MAX_POLICY_RESOURCES = 500
/** The token's policies as stored (JSON, UTF-8 bytes): the row's and the audit entry's bulk. */
const MAX_POLICIES_BYTES = 64 * 1024

const tooMany = (what: string, max: number, got: number) =>
  ApiError.badRequest(Codes.validation, `${what}: at most ${max} allowed; got ${got}`)

/**
 * Refuses a body with more policies than a token may hold, before the body's policies are parsed
 * (a 26 MB body may hold hundreds of thousands).
 */
export function refuseTooManyPolicies(body: unknown): void {
  if (body === null || typeof body !== 'object' || !('policies' in body)) return
  const { policies } = body
  if (Array.isArray(policies) && policies.length > MAX_POLICIES)
    throw tooMany('policies', MAX_POLICIES, policies.length)
}

/** Refuses a policy whose resource keys (outer and nested) exceed the bound. */
export function refuseTooManyResources(
  i: number,
  resources: Record<string, '*' | Record<string, '*'>>
): void {
  let n = 0
  for (const value of Object.values(resources))
    n += 1 + (typeof value === 'object' ? Object.keys(value).length : 0)
  if (n > MAX_POLICY_RESOURCES) throw tooMany(`policies[${i}].resources`, MAX_POLICY_RESOURCES, n)
}

/** The policies as stored; refused when larger than `MAX_POLICIES_BYTES`. */
export function boundedPoliciesJson(policies: unknown[]): string {
  const json = JSON.stringify(policies)
  const bytes = new TextEncoder().encode(json).length
  if (bytes > MAX_POLICIES_BYTES)
    throw ApiError.badRequest(
      Codes.validation,
      `policies: a token's policies may take at most ${MAX_POLICIES_BYTES} bytes as stored (JSON); these take ${bytes}`
    )
  return json
}

/**
 * Refuses a validity window that is over before it starts: `expires_on` in the past, or not later
 * than `not_before`. (A past `not_before` is fine: the token works at once.)
 */
export function refuseEmptyValidity(
  expiresOn: string | undefined,
  notBefore: string | undefined,
  now = Date.now()
): void {
  if (expiresOn === undefined) return
  const expires = Date.parse(expiresOn)
  if (expires <= now)
    throw ApiError.badRequest(
      Codes.validation,
      `expires_on: ${expiresOn} is in the past; a token must expire later than now`
    )
  if (notBefore !== undefined && expires <= Date.parse(notBefore))
    throw ApiError.badRequest(
      Codes.validation,
      `expires_on: ${expiresOn} is not later than not_before ${notBefore}; the token would never be valid`
    )
}
