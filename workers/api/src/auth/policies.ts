/**
 * @module Cloudflare-shaped token policies: validation on create, and conversion to grants.
 */
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import { findPermissionGroup, type Grant, type Permission } from './permissions.ts'
import { MAX_POLICY_GROUPS, refuseTooManyResources } from './token-limits.ts'

const ACCOUNT_PREFIX = 'com.cloudflare.api.account.'
const ZONE_PREFIX = 'com.cloudflare.api.account.zone.'

export const policySchema = z.object({
  id: z.string().optional(),
  effect: z.enum(['allow']).default('allow'),
  permission_groups: z
    .array(z.object({ id: z.string().optional(), name: z.string().optional() }))
    .min(1, 'a policy needs at least one permission group')
    .max(MAX_POLICY_GROUPS, `at most ${MAX_POLICY_GROUPS} permission groups per policy`),
  resources: z.record(z.string(), z.union([z.literal('*'), z.record(z.string(), z.literal('*'))])),
})
export type Policy = z.infer<typeof policySchema>

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * Refuses a resource keyed `__proto__` (at either level of a policy's resources) in a request body
 * as sent. The schema cannot: a parsed record assigns that key, which sets the object's prototype
 * instead of adding a resource, so the token would silently grant nothing of what was asked.
 */
export function refuseProtoResources(body: unknown): void {
  const policies = isObject(body) ? body.policies : undefined
  if (!Array.isArray(policies)) return
  for (const [i, p] of policies.entries()) {
    const resources = isObject(p) ? p.resources : undefined
    if (!isObject(resources)) continue
    const nested = Object.values(resources).filter(isObject)
    if ([resources, ...nested].some((r) => Object.hasOwn(r, '__proto__')))
      throw ApiError.badRequest(
        Codes.validation,
        `policies[${i}]: resource "__proto__" must start with ${ACCOUNT_PREFIX}`
      )
  }
}

/** Checks each permission group and resource key; returns policies with ids and canonical group names. */
export function normalizePolicies(policies: Policy[]): Policy[] {
  return policies.map((p, i) => {
    const groups = p.permission_groups.map((ref) => {
      const g = findPermissionGroup(ref)
      if (!g)
        throw ApiError.badRequest(
          Codes.validation,
          `policies[${i}]: unknown permission group ${JSON.stringify(ref.id ?? ref.name)}`
        )
      return { id: g.id, name: g.name }
    })
    refuseTooManyResources(i, p.resources)
    for (const key of Object.keys(p.resources)) {
      if (!key.startsWith(ACCOUNT_PREFIX)) {
        throw ApiError.badRequest(
          Codes.validation,
          `policies[${i}]: resource ${JSON.stringify(key)} must start with ${ACCOUNT_PREFIX}`
        )
      }
    }
    return {
      id: p.id ?? crypto.randomUUID().replaceAll('-', ''),
      effect: 'allow',
      permission_groups: groups,
      resources: p.resources,
    }
  })
}

export function policiesToGrants(policies: Policy[]): Grant[] {
  return policies.map((p) => {
    const permissions = new Set<Permission>()
    for (const ref of p.permission_groups)
      for (const perm of findPermissionGroup(ref)?.grants ?? []) permissions.add(perm)
    const grant: Grant = { permissions, accounts: new Set(), zones: new Set(), everything: false }
    for (const [key, value] of Object.entries(p.resources)) addResource(grant, key, value)
    return grant
  })
}

function addResource(grant: Grant, key: string, value: '*' | Record<string, '*'>): void {
  if (key === `${ZONE_PREFIX}*` || key === `${ACCOUNT_PREFIX}*`) {
    grant.everything = true
  } else if (key.startsWith(ZONE_PREFIX)) {
    grant.zones.add(key.slice(ZONE_PREFIX.length))
  } else if (typeof value === 'object') {
    // Nested form: { "com.cloudflare.api.account.<acct>": { "com.cloudflare.api.account.zone.*": "*" } }
    const account = key.slice(ACCOUNT_PREFIX.length)
    for (const inner of Object.keys(value)) {
      if (inner === `${ZONE_PREFIX}*`) grant.accounts.add(account)
      else if (inner.startsWith(ZONE_PREFIX)) grant.zones.add(inner.slice(ZONE_PREFIX.length))
    }
  } else {
    grant.accounts.add(key.slice(ACCOUNT_PREFIX.length))
  }
}
