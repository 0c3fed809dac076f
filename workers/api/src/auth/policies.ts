/**
 * @module Cloudflare-shaped token policies: validation on create, and conversion to grants.
 */
import { z } from 'zod'
import { ApiError, Codes } from '../http/api-error.ts'
import {
  findPermissionGroup,
  PERMISSION_GROUPS,
  type Grant,
  type Permission,
  type PermissionGroup,
} from './permissions.ts'
import { MAX_POLICY_GROUPS, refuseTooManyResources } from './token-limits.ts'

const ACCOUNT_PREFIX = 'com.cloudflare.api.account.'
const ZONE_PREFIX = 'com.cloudflare.api.account.zone.'
/** The scope of the groups that apply to zones (and, through an account, to its zones). */
const ZONE_SCOPE = 'com.cloudflare.api.account.zone'

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

const bad = (i: number, message: string) =>
  ApiError.badRequest(Codes.validation, `policies[${i}]: ${message}`)

/**
 * The group a reference names: by id, by name (case-insensitive), or both, when they agree. An
 * empty reference, an unknown id or name, or an id and a name of different groups is refused.
 */
function resolveGroup(i: number, ref: { id?: string; name?: string }): PermissionGroup {
  if (ref.id === undefined && ref.name === undefined)
    throw bad(i, 'a permission group needs an id or a name')
  const byId = ref.id === undefined ? undefined : PERMISSION_GROUPS.find((g) => g.id === ref.id)
  const byName =
    ref.name === undefined
      ? undefined
      : PERMISSION_GROUPS.find((g) => g.name.toLowerCase() === ref.name!.toLowerCase())
  if (ref.id !== undefined && !byId)
    throw bad(i, `unknown permission group id ${JSON.stringify(ref.id)}`)
  if (ref.name !== undefined && !byName)
    throw bad(i, `unknown permission group ${JSON.stringify(ref.name)}`)
  if (byId && byName && byId !== byName)
    throw bad(
      i,
      `permission group id ${JSON.stringify(ref.id)} is "${byId.name}", not ${JSON.stringify(ref.name)}; give an id and a name of the same group, or only one of them`
    )
  return (byId ?? byName)!
}

/** Zone-level resource keys of a policy: `zone.<id>`, `zone.*`, and the nested form's inner keys. */
function zoneResources(resources: Policy['resources']): string[] {
  const keys: string[] = []
  for (const [key, value] of Object.entries(resources)) {
    if (key.startsWith(ZONE_PREFIX)) keys.push(key)
    if (typeof value === 'object') keys.push(...Object.keys(value).map((k) => `${key} > ${k}`))
  }
  return keys
}

/**
 * Checks each permission group and resource key; returns policies with ids and canonical group
 * names. A group applies only to resources of its scopes: an account group (API Tokens Write) never
 * to a zone, while a zone group on an account covers the account's zones.
 */
export function normalizePolicies(policies: Policy[]): Policy[] {
  const ids = new Map<string, number>()
  return policies.map((p, i) => {
    const groups = p.permission_groups.map((ref) => resolveGroup(i, ref))
    const keys = Object.keys(p.resources)
    if (keys.length === 0) throw bad(i, 'resources must name at least one resource')
    refuseTooManyResources(i, p.resources)
    for (const [key, value] of Object.entries(p.resources)) {
      if (!key.startsWith(ACCOUNT_PREFIX))
        throw bad(i, `resource ${JSON.stringify(key)} must start with ${ACCOUNT_PREFIX}`)
      if (typeof value === 'object' && Object.keys(value).length === 0)
        throw bad(i, `resource ${JSON.stringify(key)} names no zones ({}); use "*" for the account`)
    }
    const zoneLevel = zoneResources(p.resources)
    const accountOnly = groups.find((g) => !g.scopes.includes(ZONE_SCOPE))
    if (accountOnly && zoneLevel.length > 0)
      throw bad(
        i,
        `permission group "${accountOnly.name}" applies to accounts (${accountOnly.scopes.join(', ')}), not to the zone resource ${JSON.stringify(zoneLevel[0])}; grant it on com.cloudflare.api.account.<id> in a policy of its own`
      )
    if (p.id !== undefined) {
      const first = ids.get(p.id)
      if (first !== undefined)
        throw bad(i, `id ${JSON.stringify(p.id)} is also the id of policies[${first}]`)
      ids.set(p.id, i)
    }
    return {
      id: p.id ?? crypto.randomUUID().replaceAll('-', ''),
      effect: 'allow',
      permission_groups: groups.map((g) => ({ id: g.id, name: g.name })),
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
