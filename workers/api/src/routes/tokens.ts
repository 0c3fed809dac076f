/**
 * @module API tokens: verify, create, list, get, delete, and the permission groups policies may use.
 * Served both as user tokens (/user/tokens) and account tokens (/accounts/{id}/tokens). A token
 * may make tokens only within what it holds itself (auth/grant-bound.ts); every create and delete
 * writes an audit entry in the same D1 batch (auth/token-audit.ts).
 */
import { and, count, eq } from 'drizzle-orm'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { expiryBeyondMinter, uncoveredGrant } from '../auth/grant-bound.ts'
import { allows, PERMISSION_GROUPS } from '../auth/permissions.ts'
import {
  normalizePolicies,
  policiesToGrants,
  policySchema,
  refuseProtoResources,
  type Policy,
} from '../auth/policies.ts'
import { hashToken, newTokenSecret } from '../auth/secrets.ts'
import {
  boundedPoliciesJson,
  MAX_POLICIES,
  refuseEmptyValidity,
  refuseTooManyPolicies,
} from '../auth/token-limits.ts'
import { verifiedTokens } from '../auth/authenticate.ts'
import { tokenAuditEntry } from '../auth/token-audit.ts'
import { apiTokens, auditLogs } from '../db/schema.ts'
import { ApiError, Codes } from '../http/api-error.ts'
import type { AppEnv } from '../http/app-env.ts'
import { parseWith, readJson } from '../http/body.ts'
import { ok, okList, resultInfo } from '../http/envelope.ts'
import { isId, newId, nowIso } from '../http/ids.ts'
import { intParam } from '../records/list-query.ts'
import { homeDb } from '../shards/databases.ts'

export const tokensApp = new Hono<AppEnv>()

type TokenRow = typeof apiTokens.$inferSelect

export const createSchema = z.object({
  name: z.string().min(1).max(120),
  policies: z
    .array(policySchema)
    .min(1, 'a token needs at least one policy')
    .max(MAX_POLICIES, `at most ${MAX_POLICIES} policies per token`)
    .meta({
      description: `At most ${MAX_POLICIES} policies, taking at most 64 KiB as stored (JSON)`,
    }),
  expires_on: z.iso.datetime().optional().meta({
    description:
      "When the token stops working: later than now and than `not_before`. A token made by another token may not outlive it: required, and no later than the maker's own expiry, when the maker expires",
  }),
  not_before: z.iso.datetime().optional(),
})

/** `expired` once `expires_on` has passed (computed when read: nothing rewrites the row). */
function statusOf(t: TokenRow, now: number): string {
  return t.expiresOn !== null && Date.parse(t.expiresOn) <= now ? 'expired' : t.status
}

function tokenToApi(t: TokenRow, now = Date.now()): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    status: statusOf(t, now),
    issued_on: t.issuedOn,
    modified_on: t.modifiedOn,
    not_before: t.notBefore ?? undefined,
    expires_on: t.expiresOn ?? undefined,
    last_used_on: t.lastUsedOn ?? undefined,
    policies: JSON.parse(t.policies) as Policy[],
  }
}

/**
 * Who may manage which tokens: an admin (the dev token) manages all of them; a token with the API
 * Tokens permission on an account manages only that account's tokens, under /accounts/{id}/tokens.
 * Returns the account the caller is confined to, or null for an admin.
 */
function requireTokenAdmin(c: Context<AppEnv>): string | null {
  const accountId = c.req.param('account_id')
  const p = c.var.principal
  if (p.admin) return accountId ?? null
  if (accountId !== undefined && allows(p, 'tokens:edit', { accountId })) return accountId
  throw new ApiError(
    403,
    Codes.unauthenticated,
    accountId === undefined
      ? 'Authentication error: manage tokens under /accounts/{account_id}/tokens with an API Tokens permission on that account'
      : 'Authentication error: this token cannot manage API tokens of that account'
  )
}

const ACCOUNT_PREFIX = 'com.cloudflare.api.account.'
const ZONE_PREFIX = 'com.cloudflare.api.account.zone.'

/** A non-admin may only grant what lies inside its own account: the account itself or its zones. */
async function requireWithinAccount(
  c: Context<AppEnv>,
  accountId: string,
  policies: Policy[]
): Promise<void> {
  const outside = (what: string) =>
    new ApiError(
      403,
      Codes.unauthenticated,
      `Authentication error: ${what} is outside account ${accountId}`
    )
  for (const p of policies) {
    for (const [key, value] of Object.entries(p.resources)) {
      const inner = typeof value === 'object' ? Object.keys(value) : []
      if (key === `${ZONE_PREFIX}*`) throw outside(key)
      if (!key.startsWith(ZONE_PREFIX) && key !== `${ACCOUNT_PREFIX}${accountId}`)
        throw outside(key)
      for (const k of inner) if (!k.startsWith(ZONE_PREFIX)) throw outside(k)
    }
  }
  const zoneIds = zoneIdsOf(policies)
  const accounts = await zoneAccounts(c, zoneIds)
  for (const id of zoneIds) if (accounts.get(id) !== accountId) throw outside(`zone ${id}`)
}

tokensApp.get('/verify', (c) => {
  const p = c.var.principal
  return ok(c, { id: p.tokenId, status: 'active' })
})

tokensApp.get('/permission_groups', (c) =>
  okList(
    c,
    PERMISSION_GROUPS.map((g) => ({ id: g.id, name: g.name, scopes: g.scopes })),
    resultInfo(1, PERMISSION_GROUPS.length, PERMISSION_GROUPS.length, PERMISSION_GROUPS.length)
  )
)

/** The zone ids a token's policies name (outer resource keys and inner ones), without `zone.*`. */
function zoneIdsOf(policies: Policy[]): string[] {
  const ids: string[] = []
  for (const p of policies) {
    for (const [key, value] of Object.entries(p.resources)) {
      const inner = typeof value === 'object' ? Object.keys(value) : []
      for (const k of [key, ...inner])
        if (k.startsWith(ZONE_PREFIX) && k !== `${ZONE_PREFIX}*`)
          ids.push(k.slice(ZONE_PREFIX.length))
    }
  }
  return ids
}

/**
 * The account each named zone belongs to, from the shard directory (every zone, whichever shard
 * holds it); a zone the directory no longer knows is absent, so only an explicit grant on that zone
 * covers it.
 */
async function zoneAccounts(c: Context<AppEnv>, zoneIds: string[]): Promise<Map<string, string>> {
  if (zoneIds.length === 0) return new Map()
  const { results } = await homeDb(c.env)
    .prepare(
      'SELECT zone_id, account_id FROM directory_zones WHERE zone_id IN (SELECT value FROM json_each(?1))'
    )
    .bind(JSON.stringify([...new Set(zoneIds)]))
    .all<{ zone_id: string; account_id: string }>()
  return new Map(results.map((r) => [r.zone_id, r.account_id]))
}

/**
 * A token may make only tokens within what it holds itself: each permission of each of their
 * policies on each of its resources (the account's zones included in the account), and no later
 * expiry than its own. Administrators (the bootstrap and dev tokens) are not bound.
 */
function requireGrantWithinCaller(
  c: Context<AppEnv>,
  accountId: string,
  policies: Policy[],
  expiresOn: string | undefined
): void {
  const p = c.var.principal
  // requireWithinAccount has checked that every zone the new token names is in this account.
  const beyond = uncoveredGrant(p, policiesToGrants(policies), () => accountId)
  if (beyond !== null)
    throw new ApiError(
      403,
      Codes.unauthenticated,
      `Authentication error: a token may grant only permissions it holds itself on the same resources; ${beyond}, which this token does not hold`
    )
  const outlives = expiryBeyondMinter(p, expiresOn)
  if (outlives !== null)
    throw new ApiError(
      403,
      Codes.unauthenticated,
      `Authentication error: a token may not make a token that outlives it; ${outlives}`
    )
}

/**
 * A token may delete only tokens whose permissions it holds itself on the same resources, each zone
 * counted under the account that really holds it. Expiry does not bound a deletion: deleting gives
 * the deleter nothing, and an expiring token must be able to revoke a leaked permanent one.
 */
async function requireDeleteWithinCaller(c: Context<AppEnv>, policies: Policy[]): Promise<void> {
  const accounts = await zoneAccounts(c, zoneIdsOf(policies))
  const beyond = uncoveredGrant(c.var.principal, policiesToGrants(policies), (zone) =>
    accounts.get(zone)
  )
  if (beyond !== null)
    throw new ApiError(
      403,
      Codes.unauthenticated,
      `Authentication error: a token may delete only tokens whose permissions it holds itself on the same resources; ${beyond}, which this token does not hold`
    )
}

/**
 * Refuses a token `condition` (Cloudflare's request IP filter, `request_ip.in` / `not_in`), which is
 * not supported: accepting it would hand back an unrestricted token to a client that asked for a
 * restricted one. An absent, null or empty condition restricts nothing and is accepted.
 */
function refuseCondition(body: unknown): void {
  if (body === null || typeof body !== 'object' || !('condition' in body)) return
  const condition = body.condition
  if (condition === null || condition === undefined) return
  if (typeof condition === 'object' && Object.keys(condition).length === 0) return
  throw ApiError.badRequest(
    Codes.validation,
    'condition: request IP conditions (condition.request_ip.in / not_in) are not supported, so the token would not be restricted to those addresses; make it without a condition'
  )
}

tokensApp.post('/', async (c) => {
  const confined = requireTokenAdmin(c)
  const raw = await readJson(c)
  refuseProtoResources(raw)
  refuseCondition(raw)
  refuseTooManyPolicies(raw)
  const body = parseWith(createSchema, raw)
  refuseEmptyValidity(body.expires_on, body.not_before)
  const policies = normalizePolicies(body.policies)
  const policiesJson = boundedPoliciesJson(policies)
  if (confined !== null && !c.var.principal.admin) {
    await requireWithinAccount(c, confined, policies)
    requireGrantWithinCaller(c, confined, policies, body.expires_on)
  }
  const secret = newTokenSecret()
  const now = nowIso()
  const row: TokenRow = {
    id: newId(),
    name: body.name,
    tokenHash: await hashToken(secret),
    status: 'active',
    policies: policiesJson,
    issuedOn: now,
    modifiedOn: now,
    expiresOn: body.expires_on ?? null,
    notBefore: body.not_before ?? null,
    accountId: confined,
    lastUsedOn: null,
    admin: false,
  }
  await c.var.db.batch([
    c.var.db.insert(apiTokens).values(row),
    c.var.db.insert(auditLogs).values(tokenAuditEntry(c, 'token_create', row, tokenToApi(row))),
  ])
  return ok(c, { ...tokenToApi(row), value: secret })
})

/** Tokens the caller may see: all for an admin on /user/tokens, else those of the path's account. */
function visible(c: Context<AppEnv>, confined: string | null) {
  return confined === null ? undefined : eq(apiTokens.accountId, confined)
}

/** Cloudflare's list tokens paging: `page` from 1, `per_page` 20 by default and at most 50. */
tokensApp.get('/', async (c) => {
  const confined = requireTokenAdmin(c)
  const page = intParam(c.req.query('page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER)
  const perPage = intParam(c.req.query('per_page'), 'per_page', 20, 1, 50)
  const [rows, total] = await c.var.db.batch([
    c.var.db
      .select()
      .from(apiTokens)
      .where(visible(c, confined))
      .orderBy(apiTokens.issuedOn, apiTokens.id)
      .limit(perPage)
      .offset((page - 1) * perPage),
    c.var.db.select({ n: count() }).from(apiTokens).where(visible(c, confined)),
  ])
  const now = Date.now()
  return okList(
    c,
    rows.map((t) => tokenToApi(t, now)),
    resultInfo(page, perPage, rows.length, total[0]?.n ?? 0)
  )
})

function tokenId(c: Context<AppEnv>): string {
  const id = c.req.param('token_id') ?? ''
  if (!isId(id)) throw ApiError.badRequest(Codes.tokenNotFound, 'Invalid token identifier')
  return id
}

tokensApp.get('/:token_id{[^/]+}', async (c) => {
  const confined = requireTokenAdmin(c)
  const row = await c.var.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId(c)), visible(c, confined)))
    .get()
  if (!row) throw new ApiError(404, Codes.tokenNotFound, 'Token not found')
  return ok(c, tokenToApi(row))
})

tokensApp.delete('/:token_id{[^/]+}', async (c) => {
  const confined = requireTokenAdmin(c)
  const id = tokenId(c)
  const row = await c.var.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, id), visible(c, confined)))
    .get()
  if (!row) throw new ApiError(404, Codes.tokenNotFound, 'Token not found')
  if (confined !== null && !c.var.principal.admin)
    await requireDeleteWithinCaller(c, JSON.parse(row.policies) as Policy[])
  await c.var.db.batch([
    c.var.db.delete(apiTokens).where(eq(apiTokens.id, id)),
    c.var.db.insert(auditLogs).values(tokenAuditEntry(c, 'token_delete', row, tokenToApi(row))),
  ])
  // Refused from now on in this isolate; other isolates drop it within the cache's maximum age.
  verifiedTokens.forgetAll()
  return ok(c, { id })
})
